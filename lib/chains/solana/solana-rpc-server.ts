import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { LocalSolanaChain } from "./local-solana-chain";
import { solanaRpcMethods } from "./solana-rpc-methods";
import { RpcError, rpcErrorCodes } from "./solana-rpc-params";

// The local chain behind the Solana JSON-RPC over HTTP (JSON-RPC 2.0: single and batch requests,
// positional params), so @solana/kit, wallets and our own code talk to it as to a cluster.

/** The largest request body taken, so a runaway client cannot fill the process's memory. */
const defaultMaxBodyBytes = 1024 * 1024;

type RequestId = string | number | null;
type Reply = { jsonrpc: "2.0"; id: RequestId } & ({ result: unknown } | { error: object });

/**
 * JSON with bigints written as plain numbers (lamports and slots are u64: JSON.stringify refuses
 * bigints, and a string would not be what the RPC sends). @solana/kit reads them back as bigints.
 */
export function stringifyRpcJson(value: unknown): string {
  if (typeof value === "bigint") return value.toString();
  if (value === null || value === undefined) return "null";
  if (Array.isArray(value)) return `[${value.map((item) => stringifyRpcJson(item ?? null)).join(",")}]`;
  if (value instanceof Uint8Array) return stringifyRpcJson([...value]);
  if (typeof value === "object") {
    const fields = Object.entries(value).filter(([, field]) => field !== undefined);
    return `{${fields.map(([key, field]) => `${JSON.stringify(key)}:${stringifyRpcJson(field)}`).join(",")}}`;
  }
  return JSON.stringify(value);
}

const failure = (id: RequestId, code: number, message: string, data?: unknown): Reply => ({
  jsonrpc: "2.0",
  id,
  error: data === undefined ? { code, message } : { code, message, data },
});

/** Answers one request object; undefined for a notification (no id), which gets no answer. */
async function answer(chain: LocalSolanaChain, request: unknown): Promise<Reply | undefined> {
  const call = request as { jsonrpc?: unknown; id?: unknown; method?: unknown; params?: unknown };
  const idOk = call?.id === undefined || call.id === null || ["string", "number"].includes(typeof call.id);
  const id = idOk ? ((call?.id ?? null) as RequestId) : null;
  if (
    typeof request !== "object" ||
    request === null ||
    Array.isArray(request) ||
    call.jsonrpc !== "2.0" ||
    typeof call.method !== "string" ||
    !idOk
  )
    return failure(id, rpcErrorCodes.invalidRequest, "Invalid request");
  const method = Object.hasOwn(solanaRpcMethods, call.method) ? solanaRpcMethods[call.method] : undefined;
  let reply: Reply;
  if (!method) reply = failure(id, rpcErrorCodes.methodNotFound, "Method not found");
  else if (call.params !== undefined && !Array.isArray(call.params))
    reply = failure(id, rpcErrorCodes.invalidParams, "Invalid params: expected an array of parameters");
  else {
    try {
      reply = {
        jsonrpc: "2.0",
        id,
        result: await method(chain, (call.params as unknown[] | undefined) ?? []),
      };
    } catch (error) {
      reply =
        error instanceof RpcError
          ? failure(id, error.code, error.message, error.data)
          : failure(id, rpcErrorCodes.internalError, `Internal error: ${(error as Error).message}`);
    }
  }
  return call.id === undefined ? undefined : reply;
}

/** The whole body, or null when it passes `maxBytes`. */
async function readBody(request: IncomingMessage, maxBytes: number): Promise<string | null> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > maxBytes) return null;
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString("utf8");
}

function send(response: ServerResponse, status: number, body: string, type = "application/json") {
  response.writeHead(status, { "content-type": type, "content-length": Buffer.byteLength(body) });
  response.end(body);
}

async function handle(
  chain: LocalSolanaChain,
  request: IncomingMessage,
  response: ServerResponse,
  maxBodyBytes: number,
) {
  // A cluster's RPC also answers GET /health, which load balancers and wallets probe.
  if (request.method === "GET" && request.url === "/health") return send(response, 200, "ok", "text/plain");
  if (request.method !== "POST") {
    response.setHeader("allow", "POST");
    return send(response, 405, stringifyRpcJson(failure(null, rpcErrorCodes.invalidRequest, "Use POST")));
  }
  const body = await readBody(request, maxBodyBytes);
  if (body === null) {
    // The rest of an oversized body is not read: close the connection rather than drain it.
    response.setHeader("connection", "close");
    return send(
      response,
      413,
      stringifyRpcJson(failure(null, rpcErrorCodes.invalidRequest, "Request too large")),
    );
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    return send(response, 200, stringifyRpcJson(failure(null, rpcErrorCodes.parseError, "Parse error")));
  }
  if (Array.isArray(parsed)) {
    if (parsed.length === 0)
      return send(
        response,
        200,
        stringifyRpcJson(failure(null, rpcErrorCodes.invalidRequest, "Invalid request")),
      );
    const replies: Reply[] = [];
    for (const call of parsed) {
      const reply = await answer(chain, call);
      if (reply) replies.push(reply);
    }
    if (replies.length === 0) return send(response, 204, "");
    return send(response, 200, stringifyRpcJson(replies));
  }
  const reply = await answer(chain, parsed);
  if (!reply) return send(response, 204, "");
  return send(response, 200, stringifyRpcJson(reply));
}

/** An HTTP server answering the Solana JSON-RPC from `chain` (not yet listening). */
export function createSolanaRpcServer(
  chain: LocalSolanaChain,
  options: { maxBodyBytes?: number } = {},
): Server {
  const maxBodyBytes = options.maxBodyBytes ?? defaultMaxBodyBytes;
  const server = createServer((request, response) => {
    handle(chain, request, response, maxBodyBytes).catch(() => {
      if (!response.headersSent)
        send(response, 500, stringifyRpcJson(failure(null, rpcErrorCodes.internalError, "Internal error")));
      else response.destroy();
    });
  });
  // Idle connections are kept longer than clients keep theirs (fetch's 4 s), as scripts/serve.ts
  // does: with Node's 5 s, a client on a busy machine could send on a connection the server was
  // closing, and its request failed with ECONNRESET.
  server.keepAliveTimeout = 65_000;
  return server;
}
