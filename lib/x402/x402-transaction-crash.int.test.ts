// A settler of an x402 payment by transaction (x402's SVM scheme) SIGKILLed with its settlement
// recorded, just before or just after sending the co-signed transaction: a real process settling
// a real agent's payment (the official client's) on the local Solana chain, whose clock the test
// moves; the agent's next copy or the stuck-settlement resolver decides the row from the
// transaction recorded on it. The transfer lands once and the invoice is paid once, or, never
// sent before its blockhash expired, the row is FAILED once the chain finalized past it. Landed
// and failed (the payer's balance drained meanwhile), our fee payer paid its fee: the payer is
// refused during a cooldown.
process.env.SERVICE_SWEEPER = "in-process";
process.env.SERVICE_RATE_LIMIT_X402_PER_CLIENT_PER_MINUTE = "1000";
// Two fees lost on chain within an hour pause x402 on the network (lib/x402/x402-fee-payer-breaker.ts).
process.env.SERVICE_X402_MAX_FEE_PAYER_LOSSES_PER_HOUR = "2";

import { randomBytes } from "node:crypto";
import {
  type Address,
  type Base64EncodedWireTransaction,
  createKeyPairSignerFromBytes,
  getBase58Encoder,
  type Signature,
} from "@solana/kit";
import { decodePaymentRequiredHeader } from "@x402/core/http";
import type { PaymentPayload, PaymentRequirements } from "@x402/core/types";
import { ExactSvmScheme } from "@x402/svm/exact/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { localSolanaBuyer, walletSecret } from "@/lib/chains/solana/local-solana-accounts";
import { associatedTokenAccount } from "@/lib/chains/solana/prepare-solana-transaction";
import { type SolanaKeyPair, solanaKeyPair, solanaServiceKey } from "@/lib/chains/solana/solana-keys";
import { topUpLocalWallet } from "@/lib/chains/solana/top-up-local-wallet";
import { db } from "@/lib/db/client";
import { metrics } from "@/lib/metrics/metrics";
import { crashedX402Settlement } from "@/scripts/test-support/crashed-x402-settlement";
import { scanLocalSolana } from "@/scripts/test-support/solana-invoices";
import { startTestLocalSolana, type TestLocalSolana } from "@/scripts/test-support/test-local-solana";
import { sendX402Payment, serveX402App, type X402App } from "@/scripts/test-support/x402-app";
import { resolveStuckX402Settlements, stuckSettlementMs } from "./resolve-stuck-x402-settlements";
import { x402FeePayerLossWindowMs } from "./x402-fee-payer-breaker";
import { x402PayerCooldownMs } from "./x402-payer-cooldown";

// Each crash is a settler process of its own, cold-started with tsx (it loads much of lib/): on a
// loaded 2-core machine one start takes tens of seconds, and a test here starts up to two.
const crashTestMs = 180_000;

/** How far the test has moved the chain's clock ahead of the real one. */
let ahead = 0;
const slotMs = 400;
let solana: TestLocalSolana;
let app: X402App;

beforeAll(async () => {
  solana = await startTestLocalSolana({
    chain: { slotMs, finalityDepth: 32, now: () => Date.now() + ahead },
  });
  app = await serveX402App();
}, 120_000);
afterAll(async () => {
  await app?.close();
  await solana?.stop();
});

const received = async () =>
  BigInt(
    (
      await solana.rpc
        .getTokenAccountBalance(await associatedTokenAccount(solana.receiver as Address, solana.usdcMint))
        .send()
    ).value.amount,
  );
const statusOf = async (signature: string) =>
  (await solana.rpc.getSignatureStatuses([signature as Signature], { searchTransactionHistory: true }).send())
    .value[0];

/** A paylink and the official client's payment of its Solana option by `payer` (not sent). */
async function agentPayment(payer: SolanaKeyPair = localSolanaBuyer) {
  const paylink = await app.paylink("5.00");
  const required = decodePaymentRequiredHeader(
    (await fetch(paylink.url)).headers.get("PAYMENT-REQUIRED") as string,
  );
  const option = required.accepts.find((candidate) => candidate.network.startsWith("solana:"));
  const signer = await createKeyPairSignerFromBytes(getBase58Encoder().encode(walletSecret(payer)));
  const scheme = new ExactSvmScheme(signer, { rpcUrl: solana.url });
  const { payload } = await scheme.createPaymentPayload(2, option as PaymentRequirements);
  const payment = { x402Version: 2, accepted: option, payload } as PaymentPayload;
  return { ...paylink, payment };
}

/** The payment settled by a process of its own, SIGKILLed at `crash`; its row, recorded and SETTLING. */
async function crashedSettlement(crash: "before-send" | "after-send", payer?: SolanaKeyPair) {
  const paid = await agentPayment(payer);
  const row = await crashedX402Settlement({
    family: "solana",
    crash,
    payment: paid.payment,
    paylinkId: paid.paylink.id,
  });
  return { ...paid, row };
}

/** The row's lease lapsed long enough ago for the stuck-settlement resolver to take it. */
const leftStuck = (id: string) =>
  db().x402Settlement.update({
    where: { id },
    data: { updatedAt: new Date(Date.now() - stuckSettlementMs - 60_000) },
  });

const rowOf = (id: string) => db().x402Settlement.findUniqueOrThrow({ where: { id } });

/** The invoice after a watcher pass: paid once, by the settlement's transaction. */
async function paidOnce(invoiceId: string, transaction: string) {
  await scanLocalSolana(solana);
  const invoice = await db().invoice.findUniqueOrThrow({
    where: { id: invoiceId },
    include: { payments: true },
  });
  expect(invoice.status).toBe("CONFIRMED");
  expect(invoice.payments.map((payment) => payment.txHash)).toEqual([transaction]);
  expect(await db().event.count({ where: { invoiceId, type: "payment.confirmed" } })).toBe(1);
}

describe("an x402 settlement by transaction whose settler was SIGKILLed", { timeout: crashTestMs }, () => {
  it("after sending: the resolver finds it landed, SETTLED; the transfer and the invoice's payment happen once", async () => {
    const before = await received();
    const { row, url, payment } = await crashedSettlement("after-send");
    expect(await statusOf(row.transaction as string)).not.toBeNull();
    await leftStuck(row.id);
    await expect
      .poll(() => resolveStuckX402Settlements(db()).then(() => rowOf(row.id).then((r) => r.status)), {
        timeout: 20_000,
        interval: 200,
      })
      .toBe("SETTLED");
    expect(await received()).toBe(before + 5_000_000n);
    await paidOnce(row.invoiceId, row.transaction as string);
    // The agent's copy answers the settled payment and moves nothing.
    const copy = await sendX402Payment(url, payment);
    expect(copy.status).toBe(200);
    expect((await copy.json()).transaction).toBe(row.transaction);
    expect(await received()).toBe(before + 5_000_000n);
  });

  it("after sending, decided once the node's history no longer reaches it: the watcher's record of it decides SETTLED, never expired", async () => {
    const { row } = await crashedSettlement("after-send");
    await expect
      .poll(() => statusOf(row.transaction as string).then((status) => status?.confirmationStatus), {
        timeout: 20_000,
      })
      .toBe("confirmed");
    await paidOnce(row.invoiceId, row.transaction as string);
    await leftStuck(row.id);
    // Long after (finalized past its last valid height), by a node that pruned its history.
    const slot = await solana.rpc.getSlot({ commitment: "processed" }).send();
    ahead += Number((row.lastValidHeight as bigint) + 40n - slot) * slotMs;
    solana.chain.forgetHistoryBefore(await solana.rpc.getSlot({ commitment: "processed" }).send());
    expect(await statusOf(row.transaction as string)).toBeNull();
    expect(await resolveStuckX402Settlements(db())).toBe(1);
    expect(await rowOf(row.id)).toMatchObject({ status: "SETTLED", errorReason: null });
    solana.chain.forgetHistoryBefore(0n);
  });

  it("before sending: the agent's next copy takes it over, sends the recorded bytes once, and is answered 200", async () => {
    const before = await received();
    const { row, url, payment } = await crashedSettlement("before-send");
    expect(await statusOf(row.transaction as string)).toBeNull();
    // The lease lapsed (no renewal since the crash): the copy takes the row over.
    await db().x402Settlement.update({ where: { id: row.id }, data: { updatedAt: new Date(0) } });
    const copy = await sendX402Payment(url, payment);
    expect(copy.status).toBe(200);
    expect((await copy.json()).transaction).toBe(row.transaction);
    expect(await rowOf(row.id)).toMatchObject({ status: "SETTLED", transaction: row.transaction });
    expect(await received()).toBe(before + 5_000_000n);
    await paidOnce(row.invoiceId, row.transaction as string);
    expect(await resolveStuckX402Settlements(db())).toBe(0);
  });

  it("before sending, never sent until its blockhash expired: SETTLING until the chain finalized past it, then FAILED settlement_expired, the paylink's invoice withdrawn", async () => {
    const before = await received();
    const { row, url, payment } = await crashedSettlement("before-send");
    await leftStuck(row.id);
    // Past the blockhash's life but not finalized past it: it might still be in a block. (Block
    // height is the slot on this chain; the real time the test took counts too.)
    const slot = await solana.rpc.getSlot({ commitment: "processed" }).send();
    ahead += Number((row.lastValidHeight as bigint) + 2n - slot) * slotMs;
    expect(await resolveStuckX402Settlements(db())).toBe(0);
    expect((await rowOf(row.id)).status).toBe("SETTLING");
    // Finalized past it: it can never land.
    ahead += 40 * slotMs;
    expect(await resolveStuckX402Settlements(db())).toBe(1);
    expect(await rowOf(row.id)).toMatchObject({ status: "FAILED", errorReason: "settlement_expired" });
    const invoice = await db().invoice.findUniqueOrThrow({
      where: { id: row.invoiceId },
      include: { checkoutSession: true },
    });
    expect(invoice.checkoutSession.status).toBe("EXPIRED");
    // The recorded bytes, sent now, cannot land: nothing ever moved.
    await solana.rpc
      .sendTransaction(row.signedTransaction as Base64EncodedWireTransaction, {
        encoding: "base64",
        skipPreflight: true,
      })
      .send()
      .catch(() => undefined);
    expect(await statusOf(row.transaction as string)).toBeNull();
    expect(await received()).toBe(before);
    const copy = await sendX402Payment(url, payment);
    expect(copy.status).toBe(402);
    expect((await copy.json()).error.code).toBe("settlement_expired");
  });
});

describe("a payer whose x402 transaction failed on chain, at our fee payer's cost", {
  timeout: crashTestMs,
}, () => {
  const feePayer = () => solanaServiceKey(process.env.SERVICE_HD_MNEMONIC as string, "feePayer").address;
  const lamportsOf = async (wallet: string) => (await solana.rpc.getBalance(wallet as Address).send()).value;
  const losses = async () =>
    (await metrics().x402FeePayerLosses.get()).values.find((value) => value.labels.network === "solana-local")
      ?.value ?? 0;

  const topUpOf = (payer: SolanaKeyPair) => () =>
    topUpLocalWallet(solana.rpc, payer.address, { mint: solana.usdcMint, decimals: 6, units: 5_000_000n });
  // Losses within the hour from earlier runs against this database would pause the network early.
  const forgetLosses = () =>
    db().x402Settlement.updateMany({
      where: { network: "solana-local", errorReason: "invalid_exact_svm_transaction_failed" },
      data: { updatedAt: new Date(Date.now() - x402FeePayerLossWindowMs - 1000) },
    });

  /**
   * A payment by a new funded key, checked and simulated while the payer held the value, recorded,
   * then not sent (the settler died); the payer drains its balance, and the co-signed transaction
   * reaches the chain anyway (as from a node that simulated on another state): it lands, fails, and
   * our fee payer pays its fee. Its row is left for the next request to decide.
   */
  async function failOnChain() {
    const payer = solanaKeyPair(new Uint8Array(randomBytes(32)));
    await topUpOf(payer)();
    const settled = await crashedSettlement("before-send", payer);
    const { row } = settled;
    await solana.pay({ recipient: localSolanaBuyer.address, units: 5_000_000n, references: [], payer });
    const feePayerBefore = await lamportsOf(feePayer());
    await solana.rpc
      .sendTransaction(row.signedTransaction as Base64EncodedWireTransaction, {
        encoding: "base64",
        skipPreflight: true,
      })
      .send();
    await expect
      .poll(async () => (await statusOf(row.transaction as string))?.err ?? null, { timeout: 20_000 })
      .not.toBeNull();
    expect(await lamportsOf(feePayer())).toBeLessThan(feePayerBefore);
    await db().x402Settlement.update({ where: { id: row.id }, data: { updatedAt: new Date(0) } });
    return { ...settled, payer };
  }

  it("is FAILED, counted as a loss, refused during its cooldown (402 payer_cooldown, nothing recorded or paid) and paid after it; losses across keys pause the network for the hour", async () => {
    await forgetLosses();
    const lossesBefore = await losses();
    const { row, url, payment, payer } = await failOnChain();
    const topUp = topUpOf(payer);
    const failed = await sendX402Payment(url, payment);
    expect(failed.status).toBe(402);
    expect((await failed.json()).error.code).toBe("invalid_exact_svm_transaction_failed");
    expect(await rowOf(row.id)).toMatchObject({ status: "FAILED" });
    expect(await losses()).toBe(lossesBefore + 1);
    const cooldown = await db().x402PayerCooldown.findUniqueOrThrow({
      where: { network_payer: { network: "solana-local", payer: payer.address } },
    });
    expect(cooldown.until.getTime()).toBeGreaterThan(Date.now() + x402PayerCooldownMs - 60_000);

    // Funded again, a new payment of the payer's is refused during the cooldown: nothing recorded, nothing spent.
    await topUp();
    const next = await agentPayment(payer);
    const settlements = await db().x402Settlement.count();
    const feePayerNow = await lamportsOf(feePayer());
    const refused = await sendX402Payment(next.url, next.payment);
    expect(refused.status).toBe(402);
    expect((await refused.json()).error.code).toBe("payer_cooldown");
    expect(await db().x402Settlement.count()).toBe(settlements);
    expect(await lamportsOf(feePayer())).toBe(feePayerNow);

    // Another key's failure on chain is the second loss within the hour: the network is paused
    // (each new key would drain the fee payer again). Solana is left out of the 402's accepts, and
    // a payment on it, the first payer's whose cooldown is over included, is 503 with Retry-After.
    const second = await failOnChain();
    const pausedAnswer = await sendX402Payment(second.url, second.payment);
    expect(await rowOf(second.row.id)).toMatchObject({
      status: "FAILED",
      errorReason: "invalid_exact_svm_transaction_failed",
    });
    expect(pausedAnswer.status).toBe(503);
    expect((await pausedAnswer.json()).error.code).toBe("x402_network_paused");
    expect(await losses()).toBe(lossesBefore + 2);
    await db().x402PayerCooldown.update({
      where: { network_payer: { network: "solana-local", payer: payer.address } },
      data: { until: new Date(Date.now() - 1000) },
    });
    const offered = async () => {
      const answer = await fetch((await app.paylink("5.00")).url);
      const header = answer.headers.get("PAYMENT-REQUIRED");
      return header
        ? decodePaymentRequiredHeader(header).accepts.some((option) => option.network.startsWith("solana:"))
        : false;
    };
    expect(await offered()).toBe(false);
    const paused = await sendX402Payment(next.url, next.payment);
    expect(paused.status).toBe(503);
    expect(Number(paused.headers.get("Retry-After"))).toBeGreaterThan(3000);
    expect((await paused.json()).error.code).toBe("x402_network_paused");
    expect(await db().x402Settlement.count()).toBe(settlements + 1);

    // The losses leave the hour's window: Solana is offered again, and the payment is taken and paid once.
    await forgetLosses();
    expect(await offered()).toBe(true);
    const before = await received();
    const paid = await sendX402Payment(next.url, next.payment);
    expect(paid.status).toBe(200);
    expect(await received()).toBe(before + 5_000_000n);
  });
});
