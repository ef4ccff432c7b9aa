import { z } from "zod";
import { invalidRequest, ServiceError } from "../errors";
import { parseOrThrow } from "../validation/validation-error";

export const maxJsonBodyBytes = 64 * 1024;

/**
 * Any JSON value, for a handler that needs the body whole (an idempotency hash) before parsing it.
 * Made once: a zod schema costs more to build than to run.
 */
export const anyJson = z.unknown();

const tooLarge = (maxBytes: number) =>
  new ServiceError(
    413,
    "invalid_request_error",
    "body_too_large",
    `Request bodies are limited to ${maxBytes / 1024} KiB.`,
  );

/**
 * The body as text, read chunk by chunk and abandoned (413) as soon as it passes `maxBytes`: a
 * body sent without Content-Length (chunked) is never buffered past the limit. A body cut off
 * (the client went away, or was closed for being too slow: scripts/app-server.ts) is a 400, the
 * client's doing, not an unhandled error.
 */
export async function readBodyText(request: Request, maxBytes = maxJsonBodyBytes): Promise<string> {
  if (Number(request.headers.get("content-length") ?? 0) > maxBytes) throw tooLarge(maxBytes);
  if (!request.body) return "";
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read().catch(() => {
      throw invalidRequest("body_incomplete", "The request body ended before all of it arrived.");
    });
    if (done) break;
    size += value.byteLength;
    if (size > maxBytes) {
      // Stops the upload at the socket; the client gets its 413 without us reading the rest.
      void reader.cancel().catch(() => {});
      throw tooLarge(maxBytes);
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString("utf8");
}

/**
 * readJson for an optional body: a request without one, or with an empty one whatever its
 * Content-Type says (many clients send the header on every request), parses as `{}`.
 */
export async function readOptionalJson<S extends z.ZodType>(
  request: Request,
  schema: S,
): Promise<z.output<S>> {
  const text = request.body === null ? "" : await readBodyText(request);
  if (text.trim() === "") return parseOrThrow(schema, {});
  assertJsonContentType(request.headers);
  return parseJsonText(text, schema);
}

/**
 * Reads a JSON request body and parses it with a schema from lib: 415 for another content type,
 * 413 past the size limit, 400 for malformed JSON or a body the schema refuses.
 */
export async function readJson<S extends z.ZodType>(request: Request, schema: S): Promise<z.output<S>> {
  assertJsonContentType(request.headers);
  return parseJsonText(await readBodyText(request), schema);
}

function assertJsonContentType(headers: Headers) {
  const contentType = headers.get("content-type") ?? "";
  if (!/^application\/([\w.+-]+\+)?json\s*(;|$)/i.test(contentType)) {
    throw new ServiceError(
      415,
      "invalid_request_error",
      "unsupported_media_type",
      "Send the body as JSON with `Content-Type: application/json`.",
    );
  }
}

function parseJsonText<S extends z.ZodType>(text: string, schema: S): z.output<S> {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw invalidRequest("invalid_json", "The request body is not valid JSON.");
  }
  return parseOrThrow(schema, body);
}
