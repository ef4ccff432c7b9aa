import { createServer } from "node:http";
import type { AddressInfo } from "node:net";

// A JSON-RPC proxy on 127.0.0.1 in front of a devnet that behaves like a hosted provider: it
// refuses eth_getLogs over too many blocks or with too many addresses in a topic filter (the
// devnet itself accepts anything), can slow eth_getLogs down, records every call it saw, and can be
// cut off (connections refused, as when a provider is unreachable) and restored on the same port.

export type GetLogsCall = { fromBlock: bigint; toBlock: bigint; addresses: number; at: number };

type RpcCall = { id: unknown; method: string; params?: unknown[] };
type LogFilter = { fromBlock: string; toBlock: string; topics?: (string | string[] | null)[] };

export async function startLimitedRpc(
  upstream: string,
  limits: { maxBlockRange?: number; maxAddresses?: number; getLogsDelayMs?: number },
) {
  const getLogs: GetLogsCall[] = [];
  const refuse = (call: RpcCall, message: string) => ({
    jsonrpc: "2.0",
    id: call.id,
    error: { code: -32005, message },
  });
  const answer = async (call: RpcCall) => {
    if (call.method === "eth_getLogs") {
      const filter = (call.params as LogFilter[])[0];
      const entry = {
        fromBlock: BigInt(filter.fromBlock),
        toBlock: BigInt(filter.toBlock),
        // Transfer(from, to, value): the recipients are the third topic.
        addresses: [filter.topics?.[2] ?? []].flat().filter(Boolean).length,
        at: Date.now(),
      };
      getLogs.push(entry);
      if (
        limits.maxBlockRange !== undefined &&
        entry.toBlock - entry.fromBlock + 1n > BigInt(limits.maxBlockRange)
      )
        return refuse(call, `query exceeds max block range ${limits.maxBlockRange}`);
      if (limits.maxAddresses !== undefined && entry.addresses > limits.maxAddresses)
        return refuse(call, `filter exceeds ${limits.maxAddresses} topics`);
      if (limits.getLogsDelayMs) await new Promise((resolve) => setTimeout(resolve, limits.getLogsDelayMs));
    }
    const response = await fetch(upstream, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(call),
    });
    return response.json();
  };
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", async () => {
      const body = JSON.parse(Buffer.concat(chunks).toString("utf8"));
      const result = Array.isArray(body) ? await Promise.all(body.map(answer)) : await answer(body);
      response.writeHead(200, { "content-type": "application/json" });
      response.end(JSON.stringify(result));
    });
  });
  const listen = (port: number) => new Promise<void>((resolve) => server.listen(port, "127.0.0.1", resolve));
  const close = () =>
    new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    });
  await listen(0);
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    getLogs,
    /** Refuses every connection until restore(); open ones are closed. */
    cut: close,
    restore: () => listen(port),
    close,
  };
}
