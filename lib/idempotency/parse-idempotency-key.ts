import { z } from "zod";
import { invalidRequest } from "../errors";

export const idempotencyKeyHeader = z
  .string()
  .min(16, { error: "must be 16 to 200 characters" })
  .max(200, { error: "must be 16 to 200 characters" })
  .regex(/^[\x21-\x7e]+$/, { error: "must be printable ASCII without spaces" })
  .meta({
    description:
      "Unique per order attempt; a retry with the same key and body returns the original response.",
  });

/** The Idempotency-Key header: 16-200 printable characters (docs/api.md, "Idempotency"). */
export function parseIdempotencyKey(header: string | null, options: { required: boolean }): string | null {
  if (header === null) {
    if (!options.required) return null;
    throw invalidRequest(
      "idempotency_key_required",
      "Send an `Idempotency-Key` header (16-200 characters, unique per order attempt) so a retry never creates a second session.",
      "Idempotency-Key",
    );
  }
  const parsed = idempotencyKeyHeader.safeParse(header);
  if (!parsed.success) {
    throw invalidRequest(
      "idempotency_key_invalid",
      `Invalid Idempotency-Key: ${parsed.error.issues[0].message}.`,
      "Idempotency-Key",
    );
  }
  return parsed.data;
}
