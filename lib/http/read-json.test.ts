import { describe, expect, it } from "vitest";
import { z } from "zod";
import { ServiceError } from "../errors";
import { maxJsonBodyBytes, readJson, readOptionalJson } from "./read-json";

/** A JSON POST whose body is `stream`, read as it arrives. */
const streamedPost = (stream: ReadableStream<Uint8Array>) =>
  new Request("http://localhost/api/public/payments", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: stream,
    duplex: "half",
  } as RequestInit);

/** A body sent without Content-Length, as chunked uploads are; counts what the reader pulled. */
function chunkedBody(totalBytes: number, chunkBytes = 4096) {
  const seen = { pulled: 0, cancelled: false };
  const stream = new ReadableStream<Uint8Array>(
    {
      pull(controller) {
        if (seen.pulled >= totalBytes) return controller.close();
        seen.pulled += chunkBytes;
        controller.enqueue(new TextEncoder().encode(" ".repeat(chunkBytes)));
      },
      cancel() {
        seen.cancelled = true;
      },
    },
    { highWaterMark: 0 },
  );
  return { request: streamedPost(stream), seen };
}

const anything = z.unknown();

describe("readJson", () => {
  it("stops reading a chunked body at the size limit and answers 413", async () => {
    const { request, seen } = chunkedBody(16 * 1024 * 1024);
    const error = await readJson(request, anything).catch((caught) => caught);
    expect(error).toBeInstanceOf(ServiceError);
    expect(error).toMatchObject({ status: 413, code: "body_too_large" });
    expect(seen.pulled).toBeLessThanOrEqual(maxJsonBodyBytes + 4096);
    expect(seen.cancelled).toBe(true);
  });

  it("refuses a declared Content-Length over the limit before reading anything", async () => {
    const { request, seen } = chunkedBody(1024);
    request.headers.set("content-length", String(maxJsonBodyBytes + 1));
    await expect(readJson(request, anything)).rejects.toMatchObject({ status: 413 });
    expect(seen.pulled).toBe(0);
  });

  it("answers 400 for a body cut off before its end, as when its client went away", async () => {
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(new TextEncoder().encode('{"amount":'));
        controller.error(Object.assign(new Error("aborted"), { code: "ECONNRESET" }));
      },
    });
    const error = await readJson(streamedPost(stream), anything).catch((caught) => caught);
    expect(error).toBeInstanceOf(ServiceError);
    expect(error).toMatchObject({ status: 400, code: "body_incomplete" });
  });

  it("reads a chunked body within the limit", async () => {
    const body = JSON.stringify({ note: "x".repeat(maxJsonBodyBytes - 100) });
    const request = streamedPost(new Blob([body]).stream());
    expect(await readJson(request, z.object({ note: z.string() }))).toEqual(JSON.parse(body));
  });
});

describe("readOptionalJson", () => {
  const schema = z.strictObject({ type: z.string().optional() });
  const post = (headers: Record<string, string>, body?: string) =>
    new Request("http://localhost/x", { method: "POST", headers, body });

  it.each([
    ["no body, no Content-Type", {}, undefined],
    ["no body, Content-Type JSON", { "content-type": "application/json" }, undefined],
    ["an empty body, Content-Type JSON", { "content-type": "application/json" }, ""],
    ["a blank body, Content-Type JSON", { "content-type": "application/json" }, "  \n"],
  ])("reads %s as the empty object", async (_, headers, body) => {
    expect(await readOptionalJson(post(headers, body), schema)).toEqual({});
  });

  it.each([
    ["malformed JSON", { "content-type": "application/json" }, "{", 400, "invalid_json"],
    [
      "a body of another type",
      { "content-type": "text/plain" },
      '{"type":"x"}',
      415,
      "unsupported_media_type",
    ],
    ["an unknown field", { "content-type": "application/json" }, '{"other":1}', 400, "parameter_unknown"],
  ])("refuses %s", async (_, headers, body, status, code) => {
    const error = await readOptionalJson(post(headers, body), schema).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ServiceError);
    expect(error).toMatchObject({ status, code });
  });

  it("parses a JSON body", async () => {
    expect(
      await readOptionalJson(
        post({ "content-type": "application/json" }, '{"type":"payment.confirmed"}'),
        schema,
      ),
    ).toEqual({ type: "payment.confirmed" });
  });
});
