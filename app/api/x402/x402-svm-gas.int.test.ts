// x402 on Solana metered like an authorization: the fee payer's worst-case fee for one settlement
// (two signatures and the compute caps our checks allow) priced at a configured SOL/USD, counted
// against the organization's daily gas budget, rehearsed on the local Solana chain
// (SERVICE_X402_COUNT_DEVNET_GAS). Without a fresh SOL price nothing is offered on Solana. Real
// HTTP, real PostgreSQL, the local chain, @x402/svm's official client, this process's facilitator.
process.env.SERVICE_SWEEPER = "in-process";
process.env.SERVICE_RATE_LIMIT_X402_PER_CLIENT_PER_MINUTE = "1000";
process.env.SERVICE_X402_COUNT_DEVNET_GAS = "true";
process.env.SERVICE_X402_GAS_MULTIPLE = "10";
// One settlement's fee is 0.00051 SOL, $0.0765 at $150: two settlements fit, a third does not.
process.env.SERVICE_X402_DAILY_GAS_BUDGET_USD = "0.15";
const priced = new Date();
process.env.SERVICE_RATES = JSON.stringify({
  "SOL/USD": { rate: "150", updatedAt: priced.toISOString(), maxAgeSeconds: 3600 },
});

import type { Address } from "@solana/kit";
import type { PaymentRequirements } from "@x402/core/types";
import { describe, expect, it } from "vitest";
import { solanaFamily } from "@/lib/chains/solana/solana-family";
import { solanaServiceKey } from "@/lib/chains/solana/solana-keys";
import { config } from "@/lib/config";
import { db } from "@/lib/db/client";
import { ServiceError } from "@/lib/errors";
import { quoteX402Payment } from "@/lib/x402/quote-x402-payment";
import { recordX402TransactionOutcome } from "@/lib/x402/record-x402-transaction-outcome";
import { coversSettlementGas, settlementGasUsd, x402GasToday } from "@/lib/x402/x402-gas";
import {
  createTestInvoice,
  createTestOrganization,
  createTestX402Settlement,
} from "@/scripts/test-support/fixtures";
import { sendX402Payment } from "@/scripts/test-support/x402-app";
import { solanaX402Option, solanaX402Payment, x402SolanaTestBed } from "@/scripts/test-support/x402-solana";

const bed = x402SolanaTestBed();

const feePayer = () => solanaServiceKey(process.env.SERVICE_HD_MNEMONIC as string, "feePayer").address;
const lamportsOf = async (wallet: string) =>
  (await bed.solana.rpc.getBalance(wallet as Address).send()).value;

/** A fresh quote's Solana option, paid by the official client (not sent). */
const signedPayment = async (url: string) =>
  solanaX402Payment(bed.solana, (await solanaX402Option(url)) as PaymentRequirements);

describe("x402 gas on Solana", () => {
  it("prices one settlement at the fee payer's worst case: two signatures and the compute caps, in SOL at its configured price", async () => {
    // 2 × 5,000 lamports, and 100,000 units at 5,000,000 micro-lamports: 500,000 lamports.
    expect(await solanaFamily.x402SettlementFee(bed.solana.network)).toBe(510_000n);
    expect((await settlementGasUsd(bed.solana.network))?.toString()).toBe("0.0765");
  });

  it("stops an organization's Solana payments at its daily gas budget with the code authorizations get (429), its fee payer paying nothing more", async () => {
    const { url, organization } = await bed.app.paylink("5.00");
    // Quotes taken before the budget is spent, paid after.
    const payments = [await signedPayment(url), await signedPayment(url), await signedPayment(url)];
    expect((await sendX402Payment(url, payments[0])).status).toBe(200);
    expect((await sendX402Payment(url, payments[1])).status).toBe(200);
    const rows = await db().x402Settlement.findMany({ where: { organizationId: organization.id } });
    expect(rows.map((row) => [row.status, row.gasUsd?.toString()])).toEqual([
      ["SETTLED", "0.0765"],
      ["SETTLED", "0.0765"],
    ]);
    const lamports = await lamportsOf(feePayer());
    const refused = await sendX402Payment(url, payments[2]);
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
    expect((await refused.json()).error.code).toBe("x402_gas_budget_exhausted");
    expect(await lamportsOf(feePayer())).toBe(lamports);
    expect(await db().x402Settlement.count({ where: { organizationId: organization.id } })).toBe(2);
    // A new quote is refused alike; another merchant's budget is its own.
    expect((await fetch(url)).status).toBe(429);
    const other = await bed.app.paylink("5.00");
    expect((await sendX402Payment(other.url, await signedPayment(other.url))).status).toBe(200);
  });

  it("charges a transaction's fee only when it landed: failed on chain at the fee, expired (never in a block) at 0", async () => {
    const { organization } = await createTestOrganization();
    const invoice = await createTestInvoice(organization.id, { amount: "5", status: "AWAITING_PAYMENT" });
    const gasOf = async (progress: "failed" | "expired") => {
      const row = await createTestX402Settlement(invoice, {
        asset: bed.solana.usdcMint,
        amount: "1",
        transaction: "sig",
      });
      const settling = await db().x402Settlement.update({
        where: { id: row.id },
        data: { network: bed.solana.network.id },
      });
      await recordX402TransactionOutcome(db(), settling, progress, {
        network: bed.solana.network,
        now: new Date(),
      });
      return (await db().x402Settlement.findUniqueOrThrow({ where: { id: row.id } })).gasUsd?.toString();
    };
    expect(await gasOf("failed")).toBe("0.0765");
    expect(await gasOf("expired")).toBe("0");
    expect((await x402GasToday(db(), organization.id)).spentUsd.toString()).toBe("0.0765");
  });

  it("offers nothing on Solana without a fresh SOL price: 503 x402_gas_unavailable when Solana is all there is", async () => {
    const { paylink } = await bed.app.paylink("5.00");
    // The configured SOL/USD is an hour old two hours on.
    const later = new Date(priced.getTime() + 2 * 3600_000);
    expect(await settlementGasUsd(bed.solana.network, later)).toBeUndefined();
    const refusal = await quoteX402Payment(db(), { kind: "paylink", id: paylink.id }, null, later).catch(
      (error: unknown) => error,
    );
    expect(refusal).toBeInstanceOf(ServiceError);
    expect(refusal).toMatchObject({ status: 503, code: "x402_gas_unavailable" });
  });

  it("with no gas multiple (SERVICE_X402_GAS_MULTIPLE=0) still needs the fee's price, as the budget counts it: no Solana quote, and a settlement refused 503", async () => {
    const { paylink } = await bed.app.paylink("5.00");
    const later = new Date(priced.getTime() + 2 * 3600_000);
    const x402 = config().x402;
    const multiple = x402.gasMultiple;
    x402.gasMultiple = 0;
    try {
      const refusal = await quoteX402Payment(db(), { kind: "paylink", id: paylink.id }, null, later).catch(
        (error: unknown) => error,
      );
      expect(refusal).toMatchObject({ status: 503, code: "x402_gas_unavailable" });
      // What both settle paths (authorization and transaction) ask before recording a payment.
      await expect(coversSettlementGas(bed.solana.network, "5.00", later)).rejects.toMatchObject({
        status: 503,
        code: "x402_gas_unavailable",
      });
    } finally {
      x402.gasMultiple = multiple;
    }
  });
});
