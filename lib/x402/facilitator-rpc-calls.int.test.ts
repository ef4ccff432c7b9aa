// What x402 payments ask the chain, counted at the app's RPC: a settlement's reads are CPU on the
// web process and the node under load, and calls an RPC provider counts (docs/architecture.md,
// "Settlement under load").
process.env.SERVICE_SWEEPER = "in-process";

import { afterAll, beforeAll, expect, it } from "vitest";
import { startRpcRecorder } from "@/scripts/test-support/rpc-recorder";
import { startTestDevnet, type TestDevnet } from "@/scripts/test-support/test-devnet";
import { serveX402App, type X402App, x402Agent } from "@/scripts/test-support/x402-app";

let devnet: TestDevnet;
let app: X402App;
let recorder: Awaited<ReturnType<typeof startRpcRecorder>>;

beforeAll(async () => {
  devnet = await startTestDevnet({ confirmations: 1 });
  recorder = await startRpcRecorder(devnet.rpcUrl, ["app"]);
  // The app reaches the devnet through the recorder.
  process.env.SERVICE_NETWORKS = JSON.stringify([{ ...devnet.network, rpcUrl: recorder.urls.app }]);
  app = await serveX402App();
}, 120_000);
afterAll(async () => {
  await app?.close();
  await recorder?.close();
  await devnet?.stop();
});

it("reads a payer's code at most four times a payment: the facilitator's own check before verify and before settle, and x402's checks from what was just read", async () => {
  const { url } = await app.paylink("5.00");
  // The process's first payment also reads what a signer reads once (a warm-up, not counted).
  expect((await (await x402Agent(devnet, "100")).pay(url)).status).toBe(200);
  for (const round of [1, 2]) {
    const agent = await x402Agent(devnet, "100");
    const before = recorder.calls.length;
    expect((await agent.pay(url)).status, `payment ${round}`).toBe(200);
    const codeReads = recorder.calls.slice(before).filter((call) => call.method === "eth_getCode");
    // Each read x402 makes itself would be two in verify and two in settle: six in all.
    expect(codeReads.length, `payment ${round}`).toBeLessThanOrEqual(4);
    expect(codeReads.length, `payment ${round}`).toBeGreaterThanOrEqual(2);
  }
}, 120_000);

it("looks for a settlement's receipt at once and then once a new block is out, not each poll, while blocks come on an interval", async () => {
  const { url } = await app.paylink("5.00");
  const agents = [];
  for (let made = 0; made < 6; made += 1) agents.push(await x402Agent(devnet, "100"));
  await devnet.rpc("evm_setAutomine", [false]);
  await devnet.mine();
  // A block each 3 s, where the network says 1 s: the signer reads the head each 250 ms, and
  // looking for each receipt at each read would be about 12 reads a settlement.
  const miner = setInterval(() => void devnet.mine().catch(() => undefined), 3000);
  try {
    const before = recorder.calls.length;
    const paid = await Promise.all(agents.map((agent) => agent.pay(url)));
    expect(paid.map((response) => response.status)).toEqual([200, 200, 200, 200, 200, 200]);
    const receipts = recorder.calls
      .slice(before)
      .filter((call) => call.method === "eth_getTransactionReceipt");
    // At the send, twice at the head then (the second a poll later), once when a wait reaches
    // two blocks' time (2 s), at the block that holds it, and once more as its gas is counted
    // (lib/x402/find-settlement-gas.ts).
    expect(receipts.length).toBeLessThanOrEqual(6 * 6);
  } finally {
    clearInterval(miner);
    await devnet.rpc("evm_setAutomine", [true]);
  }
}, 120_000);
