// A settler that dies just after the node took its transfer leaves the facilitator wallet's
// lowest nonce unmined (mining stopped, as a transfer priced under a risen base fee waits on a real
// network: counted in the node's `pending` nonce, never mined). The next process's first
// settlement goes out at the nonce after it, so it would wait forever behind it: that process
// replaces the nonce it did not send, and both payments land, each once; the chain decides the
// dead settler's row. The web tier's own facilitator, the official x402 client's payments, the
// devnet reached through pass-throughs: the dead settler's cuts it off once it relayed the
// broadcast; the next process's can hide a transaction, as a provider whose backends do not all
// hold it would.
process.env.SERVICE_SWEEPER = "in-process";
process.env.SERVICE_RATE_LIMIT_X402_PER_CLIENT_PER_MINUTE = "1000";

import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { decodePaymentRequiredHeader } from "@x402/core/http";
import type { PaymentPayload, PaymentRequirements } from "@x402/core/types";
import { type Hex, parseUnits } from "viem";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { clientFor } from "@/lib/chains/evm/evm-client";
import { config } from "@/lib/config";
import { closeDb, createDb, db } from "@/lib/db/client";
import { sweeperKeysFromMnemonic } from "@/lib/sweeps/sweeper-keys";
import { hardhatMnemonic, startTestDevnet } from "@/scripts/test-support/test-devnet";
import { sendX402Payment, x402Agent, x402ChainTestBed } from "@/scripts/test-support/x402-app";
import { signDevnetPayment } from "@/scripts/test-support/x402-buyer";
import {
  createBuiltInFacilitator,
  ownX402Payee,
  recordedX402Broadcasts,
  recordX402Broadcast,
} from "./create-built-in-facilitator";
import { resolveStuckX402Settlements } from "./resolve-stuck-x402-settlements";
import { settleX402Payment } from "./settle-x402-payment";

/**
 * JSON-RPC to `upstream`, except that the transactions in `hidden` are not shown, and that once
 * `cut` it answers nothing but errors from the first transaction it relays on (`broadcast`).
 */
async function passThrough(upstream: string, options: { cut?: true } = {}) {
  const hidden = new Set<string>();
  let relayed: () => void = () => undefined;
  const broadcast = new Promise<void>((resolve) => {
    relayed = resolve;
  });
  let cut = false;
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", async () => {
      const body = Buffer.concat(chunks).toString("utf8");
      try {
        if (cut) throw new Error("cut off");
        const answer = await fetch(upstream, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body,
        });
        const { method, params } = JSON.parse(body);
        const reply = await answer.json();
        if (method === "eth_sendRawTransaction" && options.cut) {
          cut = true;
          relayed();
        }
        if (method === "eth_getTransactionByHash" && hidden.has(String(params[0]).toLowerCase()))
          reply.result = null;
        if (method === "eth_getBlockByNumber" && params[0] === "pending" && reply.result)
          reply.result.transactions = reply.result.transactions.filter(
            (sent: { hash: string } | string) =>
              !hidden.has((typeof sent === "string" ? sent : sent.hash).toLowerCase()),
          );
        response.writeHead(answer.status, { "content-type": "application/json" });
        response.end(JSON.stringify(reply));
      } catch {
        // Cut off, or the devnet stopped under a request: answered as a node that is down.
        response.writeHead(502).end();
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    hide: (hash: string) => hidden.add(hash.toLowerCase()),
    broadcast,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

const bed = x402ChainTestBed(async () => {
  const devnet = await startTestDevnet({ confirmations: 1 });
  const node = await passThrough(devnet.rpcUrl);
  // The app reaches the devnet through the pass-through.
  process.env.SERVICE_NETWORKS = JSON.stringify([{ ...devnet.network, rpcUrl: node.url }]);
  return {
    ...devnet,
    node,
    stop: async () => {
      await node.close();
      await devnet.stop();
    },
  };
});

const wallet = sweeperKeysFromMnemonic(hardhatMnemonic).facilitatorWallet(31337).address;

beforeAll(async () => {
  // Funded before any settler runs: a devnet top-up would wait for a block that never comes.
  await bed.chain.sendEth(wallet, "100");
  // The process's one client of the network (its reads beside the facilitator's signer) is the
  // next process's, made now, never the dead settler's.
  clientFor(config().networks[0]);
});

/** Where the web tier keeps its facilitator, one per process (lib/x402/facilitator-client.ts). */
const facilitatorKey = Symbol.for("crypto-checkout.x402-built-in-facilitator");
const processWide = globalThis as Record<symbol, unknown>;

/**
 * Settles `payment` as the web tier does, in a process that dies once its node took the transfer:
 * its facilitator's node is cut off then and its database client closed, so nothing it still runs
 * reaches the chain or the row. The next settlement is the next process's, with a facilitator of
 * its own. The row, SETTLING with the transfer recorded.
 */
async function settleAndDie(paylinkId: string, payment: PaymentPayload) {
  const node = await passThrough(bed.chain.rpcUrl, { cut: true });
  const database = createDb(config().databaseUrl as string, 1);
  processWide[facilitatorKey] = createBuiltInFacilitator({
    mnemonic: hardhatMnemonic,
    networks: [{ ...bed.chain.network, rpcUrl: node.url }],
    ownsPayee: ownX402Payee(database),
    recordsBroadcast: recordX402Broadcast(database),
    recordedBroadcasts: recordedX402Broadcasts(database),
  });
  // Never answers: what it still does fails against the closed node and database.
  void settleX402Payment(database, { kind: "paylink", id: paylinkId }, payment).catch(() => undefined);
  await node.broadcast;
  await closeDb(database);
  delete processWide[facilitatorKey];
  await node.close();
  const row = await db().x402Settlement.findFirstOrThrow({
    where: { invoice: { checkoutSession: { paylinkId } } },
  });
  expect(row).toMatchObject({ status: "SETTLING", transaction: expect.any(String) });
  return row;
}

/** An agent's payment for a new paylink of `amount`, signed and not yet sent. */
async function signedPayment(amount: string) {
  const devnet = bed.chain;
  const paylink = await bed.app.paylink(amount);
  const required = decodePaymentRequiredHeader(
    (await fetch(paylink.url)).headers.get("PAYMENT-REQUIRED") as string,
  );
  const accepted = required.accepts.find(
    (option) => option.network === "eip155:31337",
  ) as PaymentRequirements;
  const agent = await x402Agent(devnet);
  const payment = await signDevnetPayment(agent.account, accepted, required.resource);
  return { paylink, agent, payment, payTo: accepted.payTo };
}

/** The facilitator wallet's transactions the node holds unmined, nonce by nonce. */
async function unmined() {
  const devnet = bed.chain;
  const pending = (await devnet.pendingTransactions()).filter((sent) => sent.from === wallet.toLowerCase());
  const read = await Promise.all(pending.map((sent) => devnet.client.getTransaction({ hash: sent.hash })));
  return read.sort((a, b) => a.nonce - b.nonce);
}

/** Decides the stale rows as the resolve-x402-settlements task does, the lease of `id` lapsed. */
async function resolveStale(id: string) {
  await db().x402Settlement.update({ where: { id }, data: { updatedAt: new Date(0) } });
  await resolveStuckX402Settlements(db());
  return db().x402Settlement.findUniqueOrThrow({ where: { id } });
}

/**
 * Two payments of `amounts`, mining stopped, the first's settler dead once the node took its
 * transfer, which waits at the wallet's lowest unmined nonce (mining is started again after each test).
 */
async function deadSettlerAhead(...amounts: [string, string]) {
  const devnet = bed.chain;
  const dead = await signedPayment(amounts[0]);
  const next = await signedPayment(amounts[1]);
  const nonce = await devnet.client.getTransactionCount({ address: wallet });
  await devnet.rpc("evm_setAutomine", [false]);
  const row = await settleAndDie(dead.paylink.paylink.id, dead.payment);
  const stuck = await devnet.client.getTransaction({ hash: row.transaction as Hex });
  expect(stuck.nonce).toBe(nonce);
  return { dead, next, nonce, row, stuck };
}
afterEach(() => bed.chain.rpc("evm_setAutomine", [true]));

describe("a facilitator nonce a dead settler left unmined", () => {
  it("is sent again at higher fees by the next process's first settlement: the dead settler's transfer lands once, and so does the new payment behind it", async () => {
    const devnet = bed.chain;
    const { dead, next, nonce, row, stuck } = await deadSettlerAhead("5.00", "2.00");
    const paying = sendX402Payment(next.paylink.url, next.payment);
    // The new payment at the next nonce; the stuck one replaced by the same transfer, dearer.
    await expect
      .poll(async () => (await unmined()).map((sent) => [sent.nonce, sent.hash === stuck.hash]), {
        timeout: 10_000,
        interval: 200,
      })
      .toEqual([
        [nonce, false],
        [nonce + 1, false],
      ]);
    const [replacement, settlement] = await unmined();
    expect(replacement).toMatchObject({ to: stuck.to, input: stuck.input });
    expect(replacement.maxFeePerGas).toBeGreaterThan(stuck.maxFeePerGas as bigint);
    expect(settlement.to).toBe(devnet.usdc.toLowerCase());

    await devnet.rpc("evm_setAutomine", [true]);
    await devnet.mine();
    expect((await paying).status).toBe(200);
    expect(await devnet.client.getTransactionCount({ address: wallet })).toBe(nonce + 2);
    await expect(devnet.client.getTransactionReceipt({ hash: stuck.hash })).rejects.toThrow();
    expect(await devnet.client.getTransactionReceipt({ hash: replacement.hash })).toMatchObject({
      status: "success",
    });
    expect(await devnet.usdcBalance(dead.payTo)).toBe(parseUnits("5", 6));
    expect(await devnet.usdcBalance(dead.agent.account.address)).toBe(parseUnits("95", 6));
    expect(await devnet.usdcBalance(next.payTo)).toBe(parseUnits("2", 6));
    expect(await devnet.usdcBalance(next.agent.account.address)).toBe(parseUnits("98", 6));
    // The dead settler's row: settled by the chain, with the transaction that landed.
    expect(await resolveStale(row.id)).toMatchObject({ status: "SETTLED", transaction: replacement.hash });
  }, 60_000);

  it("is filled with a transfer of nothing to the wallet itself when the node does not show its transaction; that authorization stays unused, and its row fails once its window closed", async () => {
    const devnet = bed.chain;
    const { dead, next, nonce, row, stuck } = await deadSettlerAhead("4.00", "3.00");
    devnet.node.hide(stuck.hash);

    const paying = sendX402Payment(next.paylink.url, next.payment);
    await expect
      .poll(async () => (await unmined()).map((sent) => [sent.nonce, sent.to, sent.input]), {
        timeout: 10_000,
        interval: 200,
      })
      .toEqual([
        [nonce, wallet.toLowerCase(), "0x"],
        [nonce + 1, devnet.usdc.toLowerCase(), expect.stringMatching(/^0x/)],
      ]);

    await devnet.rpc("evm_setAutomine", [true]);
    await devnet.mine();
    expect((await paying).status).toBe(200);
    expect(await devnet.client.getTransactionCount({ address: wallet })).toBe(nonce + 2);
    await expect(devnet.client.getTransactionReceipt({ hash: stuck.hash })).rejects.toThrow();
    expect(await devnet.usdcBalance(next.payTo)).toBe(parseUnits("3", 6));
    expect(await devnet.usdcBalance(dead.payTo)).toBe(0n);
    expect(await devnet.usdcBalance(dead.agent.account.address)).toBe(parseUnits("100", 6));
    // Unused while its window is open: it may still be presented, so it is left.
    expect(await resolveStale(row.id)).toMatchObject({ status: "SETTLING" });
    // The chain past the window and its margin: it can never land (the dead settler was interrupted).
    const closed = Math.ceil(row.validBefore.getTime() / 1000) + 121;
    await devnet.rpc("evm_setNextBlockTimestamp", [closed]);
    await devnet.mine();
    expect(await resolveStale(row.id)).toMatchObject({
      status: "FAILED",
      errorReason: "settlement_interrupted",
    });
    expect(await devnet.usdcBalance(dead.agent.account.address)).toBe(parseUnits("100", 6));
  }, 60_000);
});
