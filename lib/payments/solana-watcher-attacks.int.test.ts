// The Solana watcher under what the attack review tried, on the local Solana chain: a flood of cheap
// transfers into the shared receiving account ahead of a real payment, and payments to the
// reference of an invoice the watcher no longer watches (CONFIRMED, or past its late window).
import { randomBytes, randomUUID } from "node:crypto";
import { base58 } from "@scure/base";
import { type Address, createDefaultRpcTransport, createSolanaRpcFromTransport } from "@solana/kit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { POST as createSession } from "@/app/api/checkout-sessions/route";
import type { NetworkConfig } from "@/lib/chains/networks";
import { associatedTokenAccount } from "@/lib/chains/solana/prepare-solana-transaction";
import { type SolanaRpc, transactionsPerChunk } from "@/lib/chains/solana/read-solana-transfers";
import { config } from "@/lib/config";
import { db } from "@/lib/db/client";
import { callRoute } from "@/scripts/test-support/call-route";
import { createTestOrganization } from "@/scripts/test-support/fixtures";
import { startTestLocalSolana, type TestLocalSolana } from "@/scripts/test-support/test-local-solana";
import { scanNetwork } from "./scan-network";
import { lateWatchWindowMs } from "./watch-set";

let solana: TestLocalSolana;

beforeAll(async () => {
  solana = await startTestLocalSolana();
});
afterAll(() => solana?.stop());

const usdc = (amount: number) => BigInt(Math.round(amount * 1_000_000));
const network = () => config().networks.find((candidate) => candidate.id === "solana-local") as NetworkConfig;

/** A merchant's USD session started on solana-local in USDC by its creator: its payment request. */
async function solanaInvoice(amount: string) {
  const merchant = await createTestOrganization();
  const created = await callRoute(createSession, "/api/checkout-sessions", {
    headers: { ...merchant.auth, "idempotency-key": `attack-${randomUUID()}` },
    body: { amount, currency: "USD", network: "solana-local", token: "USDC" },
  });
  expect(created.status, created.text).toBe(200);
  return created.json.paymentRequest as { id: string; depositAddress: string; reference: string };
}

const payTo = (request: { depositAddress: string; reference: string }, amount: number) =>
  solana.pay({ recipient: request.depositAddress, units: usdc(amount), references: [request.reference] });

const invoiceRow = (id: string) =>
  db().invoice.findUniqueOrThrow({ where: { id }, include: { payments: { orderBy: { createdAt: "asc" } } } });

/**
 * One watcher poll whose lease runs out after `budget` transaction reads: it is aborted there, as
 * a scan that lost its lease is. Returns whether it finished.
 */
async function poll(budget = Number.POSITIVE_INFINITY) {
  let reads = 0;
  const controller = new AbortController();
  const transport = createDefaultRpcTransport({ url: solana.url });
  const counting = createSolanaRpcFromTransport(((request: { payload: unknown }) => {
    for (const call of [request.payload].flat() as { method: string }[])
      if (call.method === "getTransaction" && ++reads >= budget) controller.abort();
    return transport(request as never);
  }) as typeof transport) as unknown as SolanaRpc;
  try {
    await scanNetwork(db(), network(), counting, { signal: controller.signal });
    return true;
  } catch (error) {
    if (!controller.signal.aborted) throw error;
    return false;
  }
}

describe("a flood of cheap transfers to the receiving account", () => {
  it("delays a real payment behind it by a bounded number of polls, however short each poll", async () => {
    await poll();
    const request = await solanaInvoice("12");
    // Dust from the buyer, each a distinct transaction (its own amount), some carrying a key that
    // names no invoice, sent a batch a slot so that no slot holds most of them.
    const flood = 400;
    for (let start = 0; start < flood; start += 40) {
      await Promise.all(
        Array.from({ length: 40 }, (_, offset) =>
          solana.pay({
            recipient: request.depositAddress,
            units: BigInt(start + offset + 1),
            references: offset % 2 ? [base58.encode(randomBytes(32))] : [],
          }),
        ),
      );
    }
    await payTo(request, 12);

    // The most transactions one slot holds: a chunk reads whole slots.
    const account = await associatedTokenAccount(solana.receiver as Address, solana.usdcMint as Address);
    const listed = await solana.rpc.getSignaturesForAddress(account, { limit: 1000 }).send();
    const perSlot = new Map<bigint, number>();
    for (const entry of listed) perSlot.set(entry.slot, (perSlot.get(entry.slot) ?? 0) + 1);
    const budget = transactionsPerChunk + Math.max(...perSlot.values()) + 9;
    // A poll that had to read the whole flood before recording anything would never get through.
    expect(budget).toBeLessThan(flood);

    let polls = 0;
    while ((await invoiceRow(request.id)).status !== "CONFIRMED" && polls < 20) {
      await poll(budget);
      polls++;
    }
    expect((await invoiceRow(request.id)).status).toBe("CONFIRMED");
    expect(polls).toBeLessThanOrEqual(Math.ceil((flood + 1) / transactionsPerChunk) + 2);
    // The dust paid no invoice: the real payment is the invoice's only one.
    expect((await invoiceRow(request.id)).payments.map((payment) => payment.amount.toString())).toEqual([
      "12",
    ]);
    // 400 transfers and up to 20 polls: near a minute on a busy 2-core machine running CI.
  }, 180_000);
});

describe("a payment to an invoice the watcher no longer watches", () => {
  it("is recorded as an over payment on a CONFIRMED invoice, which stays confirmed once", async () => {
    const request = await solanaInvoice("10");
    await payTo(request, 10);
    await poll();
    expect((await invoiceRow(request.id)).status).toBe("CONFIRMED");
    const again = await payTo(request, 3);
    await poll();
    await poll();
    const row = await invoiceRow(request.id);
    expect(row.status).toBe("CONFIRMED");
    expect(row.amountPaid.toString()).toBe("13");
    expect(row.payments[1]).toMatchObject({ txHash: again, status: "CONFIRMED", late: false });
    const events = await db().event.findMany({ where: { invoiceId: request.id, type: "payment.confirmed" } });
    expect(events).toHaveLength(1);
  });

  it("is recorded as a late payment past the late window, and completes its invoice", async () => {
    const request = await solanaInvoice("7");
    await poll();
    // The deadline a day and more behind: the watch set drops the invoice.
    await db().invoice.update({
      where: { id: request.id },
      data: { deadline: new Date(Date.now() - lateWatchWindowMs - 60_000) },
    });
    await poll();
    const signature = await payTo(request, 7);
    await poll();
    const row = await invoiceRow(request.id);
    expect(row.payments).toMatchObject([{ txHash: signature, late: true }]);
    expect(row.status).toBe("CONFIRMED");
    const [confirmed] = await db().event.findMany({
      where: { invoiceId: request.id, type: "payment.confirmed" },
    });
    expect(confirmed.payload).toMatchObject({ late: true, transactions: [signature] });
  });

  it("is recorded once, however often its slot is read again", async () => {
    const request = await solanaInvoice("4");
    await payTo(request, 4);
    await poll();
    // The same transfers read again (the cursor set back): nothing more is recorded.
    await db().chainCursor.update({ where: { network: "solana-local" }, data: { lastScannedBlock: 0n } });
    await poll();
    expect((await invoiceRow(request.id)).payments).toHaveLength(1);
  });
});
