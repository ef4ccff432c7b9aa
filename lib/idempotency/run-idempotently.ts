import { createHash } from "node:crypto";
import type { Db } from "../db/client";
import { conflict } from "../errors";

export type StoredResponse = { status: number; body: unknown };
export type IdempotencyClaim = { organizationId: string; key: string; requestHash: string };

/** Keys are answered from storage for at least this long (decisions doc: at least 24 hours). */
export const idempotencyKeyRetentionMs = 48 * 60 * 60 * 1000;

function canonical(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(canonical);
  if (value !== null && typeof value === "object") {
    return Object.fromEntries(
      Object.keys(value)
        .sort()
        .map((key) => [key, canonical((value as Record<string, unknown>)[key])]),
    );
  }
  return value;
}

/** What "the same request" means: the same JSON body, whatever the key order or spacing. */
export function hashRequest(body: unknown): string {
  return createHash("sha256")
    .update(JSON.stringify(canonical(body)))
    .digest("hex");
}

/**
 * The stored answer for a claim that another request already made: the same response for the
 * same body, 409 for another. Called after an insert of the claim found the key taken, which in
 * PostgreSQL means the first request has committed (the insert waited for it).
 */
export async function replayIdempotentResponse(
  database: Db,
  claim: IdempotencyClaim,
): Promise<StoredResponse> {
  const existing = await database.idempotencyKey.findUniqueOrThrow({
    where: { organizationId_key: { organizationId: claim.organizationId, key: claim.key } },
  });
  if (existing.requestHash !== claim.requestHash) {
    throw conflict(
      "idempotency_key_reused",
      "This Idempotency-Key was already used with a different request body. Use a new key for a new request.",
    );
  }
  return { status: existing.responseStatus as number, body: JSON.parse(existing.responseBody as string) };
}

/** Forgets keys past retention (a periodic task). */
export async function purgeIdempotencyKeys(database: Db, now = new Date()): Promise<number> {
  const { count } = await database.idempotencyKey.deleteMany({
    where: { createdAt: { lt: new Date(now.getTime() - idempotencyKeyRetentionMs) } },
  });
  return count;
}
