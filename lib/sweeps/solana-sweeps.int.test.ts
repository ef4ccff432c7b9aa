// Settlement changes are announced to owners; the development mailbox takes the emails.
process.env.SERVICE_DEV_MAILBOX = "true";

// Sweeps on the local Solana chain and PostgreSQL: a confirmed Solana invoice's value moves from
// the shared receiving wallet to the organization's settlement wallet (its token account, read on
// chain), the fee payer paying; a destination not in force is refused; a crash between the record
// and the send still pays once. Slots follow the real clock (400 ms).
import { generateKeyPairSigner } from "@solana/kit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ServiceTransfers } from "@/lib/chains/chain-family";
import type { NetworkConfig } from "@/lib/chains/networks";
import { solanaFamily } from "@/lib/chains/solana/solana-family";
import { config } from "@/lib/config";
import { db } from "@/lib/db/client";
import { createTestOrganization, setTestSettlementWallets } from "@/scripts/test-support/fixtures";
import { paidSolanaInvoice } from "@/scripts/test-support/solana-invoices";
import { startTestLocalSolana, type TestLocalSolana } from "@/scripts/test-support/test-local-solana";
import { advanceDirectSweeps, type DirectSweepOptions } from "./advance-direct-sweeps";
import { getSweepStats } from "./get-sweep-stats";
import { planSweeps } from "./plan-sweeps";
import { reportFeePayer } from "./report-fee-payer";

const transfers = solanaFamily.serviceTransfers as ServiceTransfers;
let solana: TestLocalSolana;
let network: NetworkConfig;
let mnemonic: string;

beforeAll(async () => {
  solana = await startTestLocalSolana();
  network = config().networks.find((candidate) => candidate.id === solana.network.id) as NetworkConfig;
  mnemonic = config().hdMnemonic as string;
});
afterAll(() => solana?.stop());

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const usdcOf = (owner: string) => transfers.balance(network, owner, { address: solana.usdcMint });
const sweepOf = (invoiceId: string) =>
  db().sweep.findFirstOrThrow({ where: { invoiceId }, include: { transactions: true } });
const advance = (options: Partial<DirectSweepOptions> = {}) =>
  advanceDirectSweeps(db(), network, { transfers, mnemonic, ...options });

/** An organization with a fresh Solana settlement wallet, and its $amount invoice paid and confirmed. */
async function paidInvoiceWithWallet(amount: number) {
  const merchant = await createTestOrganization();
  const wallet = (await generateKeyPairSigner()).address;
  await setTestSettlementWallets(merchant.organization.id, [{ network: network.id, address: wallet }]);
  const invoice = await paidSolanaInvoice(solana, amount, merchant);
  return { merchant, wallet, invoice };
}

/** Passes until the invoice's sweep is past SUBMITTED (its transfer at `confirmed`, or refused). */
async function settle(invoiceId: string, options: Partial<DirectSweepOptions> = {}) {
  for (let pass = 0; pass < 40; pass++) {
    await advance(options);
    const sweep = await sweepOf(invoiceId);
    if (sweep.status !== "SUBMITTED") return sweep;
    await sleep(250);
  }
  return sweepOf(invoiceId);
}

describe("a Solana sweep", () => {
  it("moves a confirmed invoice's value to the settlement wallet's token account, once", async () => {
    const { wallet, invoice } = await paidInvoiceWithWallet(4.25);
    const receivingBefore = await usdcOf(solana.receiver);
    expect(await planSweeps(db(), network, solana.rpc, {})).toMatchObject({ planned: 1 });
    // Planned once: the next plan finds nothing left to sweep.
    expect(await planSweeps(db(), network, solana.rpc, {})).toMatchObject({ planned: 0 });
    const planned = await sweepOf(invoice.id);
    expect(planned).toMatchObject({
      status: "PENDING",
      strategy: "DIRECT",
      fromAddress: solana.receiver,
      toAddress: wallet,
    });
    expect(planned.amount.toString()).toBe("4.25");
    const swept = await settle(invoice.id);
    expect(swept).toMatchObject({ status: "CONFIRMED", failureReason: null });
    expect(swept.amountSent?.toString()).toBe("4.25");
    expect(swept.transactions).toHaveLength(1);
    expect(swept.transactions[0]).toMatchObject({
      kind: "TRANSFER",
      signer: transfers.wallet(network, mnemonic, "feePayer"),
      blockNumber: expect.any(BigInt),
    });
    expect(await usdcOf(wallet)).toBe(4_250_000n);
    expect(await usdcOf(solana.receiver)).toBe(receivingBefore - 4_250_000n);
    await advance();
    expect(await usdcOf(wallet)).toBe(4_250_000n);
  });

  it("refuses a destination that is not the wallet in force, or not pinned: deferred, nothing sent", async () => {
    const { wallet, invoice } = await paidInvoiceWithWallet(2);
    await planSweeps(db(), network, solana.rpc, {});
    const planned = await sweepOf(invoice.id);
    const other = (await generateKeyPairSigner()).address;
    await db().sweep.update({ where: { id: planned.id }, data: { toAddress: other } });
    await advance();
    const refused = await sweepOf(invoice.id);
    expect(refused.status).toBe("DEFERRED");
    expect(refused.failureReason).toContain(`Refused to pay ${other}`);
    expect(refused.transactions).toHaveLength(0);

    await db().sweep.update({ where: { id: planned.id }, data: { toAddress: wallet } });
    await advance({ destinations: { [network.id]: [other] } });
    const unpinned = await sweepOf(invoice.id);
    expect(unpinned.status).toBe("DEFERRED");
    expect(unpinned.failureReason).toContain("SERVICE_SWEEP_DESTINATIONS");
    expect(unpinned.transactions).toHaveLength(0);
    await sleep(900);
    expect(await usdcOf(other)).toBe(0n);
    expect(await usdcOf(wallet)).toBe(0n);

    // Pinned to the wallet in force, it goes.
    expect(await settle(invoice.id, { destinations: { [network.id]: [wallet] } })).toMatchObject({
      status: "CONFIRMED",
    });
    expect(await usdcOf(wallet)).toBe(2_000_000n);
  });

  it.each([
    ["receiving wallet", () => solana.receiver],
    ["fee payer", () => transfers.wallet(network, mnemonic, "feePayer")],
    ["refund wallet", (index: number) => transfers.wallet(network, mnemonic, "refund", index)],
  ])(
    "refuses to pay the service's own %s, even as the wallet in force: deferred, nothing sent",
    async (kind, own) => {
      const merchant = await createTestOrganization();
      const { refundWalletIndex } = await db().organization.findUniqueOrThrow({
        where: { id: merchant.organization.id },
      });
      const address = own(refundWalletIndex);
      // Put in force directly: the web tier refuses it (solana-settlement-wallets.int.test.ts).
      await setTestSettlementWallets(merchant.organization.id, [{ network: network.id, address }]);
      const invoice = await paidSolanaInvoice(solana, 1.5, merchant);
      await planSweeps(db(), network, solana.rpc, {});
      const receivingBefore = await usdcOf(solana.receiver);
      await advance();
      const refused = await sweepOf(invoice.id);
      expect(refused).toMatchObject({ status: "DEFERRED", transactions: [] });
      expect(refused.failureReason).toContain(`${address}: it is this service's own ${kind}`);
      await sleep(900);
      expect(await usdcOf(solana.receiver)).toBe(receivingBefore);
    },
  );

  it("crashing between the record and the send, is sent by the next pass and pays once", async () => {
    const { wallet, invoice } = await paidInvoiceWithWallet(1.5);
    await planSweeps(db(), network, solana.rpc, {});
    const crash = new Error("crashed before broadcast");
    await advance({
      beforeBroadcast: () => {
        throw crash;
      },
    });
    const recorded = await sweepOf(invoice.id);
    expect(recorded.status).toBe("SUBMITTED");
    expect(recorded.transactions).toHaveLength(1);
    await sleep(900);
    expect(await usdcOf(wallet)).toBe(0n);
    const swept = await settle(invoice.id);
    expect(swept.status).toBe("CONFIRMED");
    expect(swept.transactions.map((transaction) => transaction.hash)).toEqual([
      recorded.transactions[0].hash,
    ]);
    expect(await usdcOf(wallet)).toBe(1_500_000n);
  });

  it("reports the fee payer's SOL as the network's gas wallet, in SOL", async () => {
    const reported = await reportFeePayer(db(), network, transfers, mnemonic);
    expect(reported).toMatchObject({
      network: network.id,
      address: transfers.wallet(network, mnemonic, "feePayer"),
      low: false,
    });
    const lamports = await transfers.balance(network, reported.address);
    expect(reported.balance.toString()).toBe((Number(lamports) / 1e9).toString());
    expect(reported.threshold.toString()).toBe("0.0409856");
    // The health detail names the unit: SOL, though the network lists no SOL token.
    expect((await getSweepStats(db())).gasWallets).toContainEqual(
      expect.objectContaining({ network: network.id, symbol: "SOL", low: false }),
    );
  });
});
