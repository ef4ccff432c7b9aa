import type { z } from "zod";
import { invalidRequest, ServiceError } from "../errors";
import { parseOrThrow } from "./validation-error";

export const maxJsonBodyBytes = 64 * 1024;

const tooLarge = () =>
  new ServiceError(
    413,
    "invalid_request_error",
    "body_too_large",
    `Request bodies are limited to ${maxJsonBodyBytes / 1024} KiB.`,
  );

/**
 * Reads a JSON request body and parses it with a schema from lib: 415 for another content type,
 * 413 past the size limit, 400 for malformed JSON or a body the schema refuses.
 */
export async function readJson<S extends z.ZodType>(request: Request, schema: S): Promise<z.output<S>> {
  const contentType = request.headers.get("content-type") ?? "";
  if (!/^application\/([\w.+-]+\+)?json\s*(;|$)/i.test(contentType)) {
    throw new ServiceError(
      415,
      "invalid_request_error",
      "unsupported_media_type",
      "Send the body as JSON with `Content-Type: application/json`.",
    );
  }
  const declared = Number(request.headers.get("content-length") ?? 0);
  if (declared > maxJsonBodyBytes) throw tooLarge();
  const text = await request.text();
  if (Buffer.byteLength(text) > maxJsonBodyBytes) throw tooLarge();
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw invalidRequest("invalid_json", "The request body is not valid JSON.");
  }
  return parseOrThrow(schema, body);
}
