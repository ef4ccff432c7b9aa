import { createHash, timingSafeEqual } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { PaymentPayloadV2Schema, PaymentRequirementsV2Schema } from "@x402/core/schemas";
import type { FacilitatorClient } from "@x402/core/server";
import type { PaymentPayload, PaymentRequirements } from "@x402/core/types";
import { log, maskTarget } from "../log";
import { isLoopbackAddress } from "../net/client-address";

// The signing role's facilitator over HTTP, as x402's facilitator API: POST /verify and
// POST /settle with {x402Version, paymentPayload, paymentRequirements}, GET /supported. Thin: the
// body is read, checked against x402's own schemas and handed to the facilitator, whose answer is
// the response. A refused payment is a 200 with isValid/success false, as x402's client expects,
// its message ours from its reason code: the facilitator's own text may be a library's dump (a
// failed simulation's whole contract call), which says nothing a client can act on.

/** A verify or settle request is a few kilobytes; anything much larger is not one. */
export const maxFacilitatorBodyBytes = 64 * 1024;

type Answer = { status: number; body: unknown; headers?: Record<string, string> };

const sha256 = (value: string) => createHash("sha256").update(value).digest();

/** Whether the request carries the bearer token, compared in constant time (over digests, so the length leaks nothing either). */
function authorized(request: IncomingMessage, token: string | undefined): boolean {
  if (token === undefined) return true;
  const presented = /^Bearer (.+)$/.exec(request.headers.authorization ?? "")?.[1] ?? "";
  return timingSafeEqual(sha256(presented), sha256(token));
}

class TooLarge extends Error {}

async function readBody(request: IncomingMessage): Promise<string> {
  if (Number(request.headers["content-length"] ?? 0) > maxFacilitatorBodyBytes) throw new TooLarge();
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > maxFacilitatorBodyBytes) throw new TooLarge();
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString("utf8");
}

/** What is wrong with `field`, from the first of its schema's issues. */
function problem(field: string, issues: { path: (string | number)[] }[]): string {
  const where = issues[0]?.path.join(".");
  return where ? `${field}.${where} is invalid` : `${field} is missing or not an object`;
}

/** The request's payment payload and requirements, or the 400 that says what is wrong. */
function parseRequest(
  text: string,
): { payload: PaymentPayload; requirements: PaymentRequirements } | { error: string } {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return { error: "the body is not JSON" };
  }
  if (typeof body !== "object" || body === null || Array.isArray(body))
    return { error: "the body must be a JSON object {x402Version, paymentPayload, paymentRequirements}" };
  const fields = body as Record<string, unknown>;
  if (fields.x402Version !== 2) return { error: "x402Version must be 2" };
  const payload = PaymentPayloadV2Schema.safeParse(fields.paymentPayload);
  if (!payload.success) return { error: problem("paymentPayload", payload.error.issues) };
  const requirements = PaymentRequirementsV2Schema.safeParse(fields.paymentRequirements);
  if (!requirements.success) return { error: problem("paymentRequirements", requirements.error.issues) };
  return {
    payload: payload.data as PaymentPayload,
    requirements: requirements.data as PaymentRequirements,
  };
}

async function answer(
  request: IncomingMessage,
  facilitator: FacilitatorClient,
  token: string | undefined,
): Promise<Answer> {
  const path = new URL(request.url ?? "/", "http://facilitator").pathname;
  const method = { "/verify": "POST", "/settle": "POST", "/supported": "GET" }[path];
  if (!method) return { status: 404, body: { error: "not found" } };
  if (!authorized(request, token))
    return { status: 401, body: { error: "unauthorized" }, headers: { "WWW-Authenticate": "Bearer" } };
  if (request.method !== method)
    return { status: 405, body: { error: `use ${method}` }, headers: { Allow: method } };
  if (path === "/supported") return { status: 200, body: await facilitator.getSupported() };
  let text: string;
  try {
    text = await readBody(request);
  } catch (error) {
    if (error instanceof TooLarge)
      return {
        status: 413,
        body: { error: "the body is too large" },
        // The rest of the body is left unread.
        headers: { Connection: "close" },
      };
    throw error;
  }
  const parsed = parseRequest(text);
  if ("error" in parsed) return { status: 400, body: { error: parsed.error } };
  if (path === "/verify") {
    const { invalidMessage: _text, ...verified } = await facilitator.verify(
      parsed.payload,
      parsed.requirements,
    );
    const reason = verified.invalidReason;
    return {
      status: 200,
      body: reason ? { ...verified, invalidMessage: `The payment is not valid (${reason}).` } : verified,
    };
  }
  const { errorMessage: _text, ...settled } = await facilitator.settle(parsed.payload, parsed.requirements);
  const reason = settled.errorReason;
  return {
    status: 200,
    body: reason ? { ...settled, errorMessage: `The payment was not settled (${reason}).` } : settled,
  };
}

function send(response: ServerResponse, { status, body, headers }: Answer) {
  response.writeHead(status, { "Content-Type": "application/json", "Cache-Control": "no-store", ...headers });
  response.end(JSON.stringify(body));
}

export type FacilitatorServer = { url: string; close: () => Promise<void> };

/**
 * Serves `facilitator` on host:port (port 0: one the system picks). Without a token it listens on
 * loopback only: settling spends the facilitator wallet's gas.
 */
export async function serveFacilitator(options: {
  facilitator: FacilitatorClient;
  host: string;
  port: number;
  token?: string;
}): Promise<FacilitatorServer> {
  const { facilitator, host, port, token } = options;
  if (token === undefined && host !== "localhost" && !isLoopbackAddress(host))
    throw new Error("the x402 facilitator listens beyond loopback only with a bearer token");
  const server = createServer((request, response) => {
    answer(request, facilitator, token).then(
      (result) => send(response, result),
      (error) => {
        // The facilitator throws only when it cannot do its work (an RPC node down): the
        // payment itself was neither refused nor settled.
        log.warn({ err: error, path: maskTarget(request.url ?? "/") }, "x402 facilitator request failed");
        if (!response.headersSent)
          send(response, { status: 502, body: { error: "the facilitator could not complete the request" } });
      },
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, resolve);
  });
  const bound = server.address() as AddressInfo;
  const shownHost = bound.family === "IPv6" ? `[${bound.address}]` : bound.address;
  return {
    url: `http://${shownHost}:${bound.port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
