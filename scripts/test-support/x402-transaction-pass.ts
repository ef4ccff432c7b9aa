// One agent's x402 payment settled by a process of its own (lib/x402/x402-transaction-crash.int.test.ts,
// Solana; lib/x402/x402-authorization-crash.int.test.ts, an EVM authorization). Its node
// (X402_FAMILY's network: "solana" unless "evm") is reached through a pass-through in this process
// that SIGKILLs it at the worst moments, its settlement already recorded: just before the
// transaction reaches the node (X402_CRASH=before-send) or just after the node took it
// (after-send). The test then shows who decides the row, and that it pays once.
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";

const payment = JSON.parse(process.env.X402_PAYMENT as string);
const resource = JSON.parse(process.env.X402_RESOURCE as string);
const crash = process.env.X402_CRASH as "before-send" | "after-send";
const evm = process.env.X402_FAMILY === "evm";
const networks = JSON.parse(process.env.SERVICE_NETWORKS as string) as { family?: string; rpcUrl: string }[];
const chain = networks.find((network) =>
  evm ? !network.family || network.family === "evm" : network.family === "solana",
);
if (!chain) throw new Error(`no ${evm ? "EVM" : "Solana"} network configured`);
const upstream = chain.rpcUrl;
const sendMethod = evm ? "eth_sendRawTransaction" : "sendTransaction";
const die = () => process.kill(process.pid, "SIGKILL");

const proxy = createServer((request, response) => {
  const chunks: Buffer[] = [];
  request.on("data", (chunk: Buffer) => chunks.push(chunk));
  request.on("end", async () => {
    const body = Buffer.concat(chunks);
    const sending = JSON.parse(body.toString("utf8")).method === sendMethod;
    if (sending && crash === "before-send") die();
    const answer = await fetch(upstream, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body,
    });
    const text = await answer.text();
    if (sending && crash === "after-send") die();
    response.writeHead(answer.status, { "content-type": "application/json" });
    response.end(text);
  });
});
await new Promise<void>((resolve) => proxy.listen(0, "127.0.0.1", resolve));
chain.rpcUrl = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
process.env.SERVICE_NETWORKS = JSON.stringify(networks);

// Read only now: the configuration must see the pass-through's address.
const { config } = await import("../../lib/config");
const { createDb } = await import("../../lib/db/client");
const { settleX402Payment } = await import("../../lib/x402/settle-x402-payment");
const { settleX402Transaction } = await import("../../lib/x402/settle-x402-transaction");
const database = createDb(config().databaseUrl as string, 1);
if (evm) await settleX402Payment(database, resource, payment);
else await settleX402Transaction(database, resource, payment);
// Reaching here means no crash happened: the test fails on the exit code.
process.exit(3);
