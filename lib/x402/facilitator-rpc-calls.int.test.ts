// What one x402 payment asks the chain, counted at the app's RPC: a settlement's reads are CPU on
// the web process and the node under load (docs/architecture.md, "Settlement under load").
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
