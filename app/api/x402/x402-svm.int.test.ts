// x402 on Solana over real HTTP with the official client (@x402/fetch, @x402/svm's exact scheme),
// against the local Solana chain (LiteSVM behind JSON-RPC), real PostgreSQL and this process's
// built-in facilitator, which co-signs as fee payer (lib/x402/settle-x402-transaction.ts).
process.env.SERVICE_SWEEPER = "in-process";
process.env.SERVICE_RATE_LIMIT_X402_PER_CLIENT_PER_MINUTE = "1000";

import { base58 } from "@scure/base";
import {
  type Address,
  appendTransactionMessageInstructions,
  type Blockhash,
  createKeyPairSignerFromBytes,
  createTransactionMessage,
  getBase58Encoder,
  getBase64EncodedWireTransaction,
  type Instruction,
  partiallySignTransactionMessageWithSigners,
  pipe,
  setTransactionMessageFeePayer,
  setTransactionMessageLifetimeUsingBlockhash,
} from "@solana/kit";
import { getTransferSolInstruction } from "@solana-program/system";
import { getTransferCheckedInstruction } from "@solana-program/token";
import { decodePaymentRequiredHeader, encodePaymentSignatureHeader } from "@x402/core/http";
import type { PaymentPayload, PaymentRequirements } from "@x402/core/types";
import { wrapFetchWithPayment, x402Client } from "@x402/fetch";
import { ExactSvmScheme } from "@x402/svm/exact/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { localSolanaBuyer, walletSecret } from "@/lib/chains/solana/local-solana-accounts";
import { associatedTokenAccount } from "@/lib/chains/solana/prepare-solana-transaction";
import { memoV2ProgramAddress } from "@/lib/chains/solana/prepare-token-transfer";
import { solanaServiceKey } from "@/lib/chains/solana/solana-keys";
import { db } from "@/lib/db/client";
import { resolveStuckX402Settlements } from "@/lib/x402/resolve-stuck-x402-settlements";
import { scanLocalSolana } from "@/scripts/test-support/solana-invoices";
import { startTestLocalSolana, type TestLocalSolana } from "@/scripts/test-support/test-local-solana";
import { serveX402App, type X402App } from "@/scripts/test-support/x402-app";

let solana: TestLocalSolana;
let app: X402App;

beforeAll(async () => {
  solana = await startTestLocalSolana();
  app = await serveX402App();
}, 120_000);
afterAll(async () => {
  await app?.close();
  await solana?.stop();
});

const devnetCaip2 = "solana:EtWTRABZaYq6iMfeYKouRu166VU2xqa1";
const feePayer = () => solanaServiceKey(process.env.SERVICE_HD_MNEMONIC as string, "feePayer").address;
// The key as the start prints it, read as docs/agents.md reads it; one signer instance (kit
// refuses two of one address in a transaction).
const buyer = createKeyPairSignerFromBytes(getBase58Encoder().encode(walletSecret(localSolanaBuyer)));
const buyerSigner = () => buyer;
const receivingAccount = () => associatedTokenAccount(solana.receiver as Address, solana.usdcMint);
const balanceOf = async (account: Address) =>
  BigInt((await solana.rpc.getTokenAccountBalance(account).send()).value.amount);
const lamportsOf = async (wallet: string) => (await solana.rpc.getBalance(wallet as Address).send()).value;

/** The paylink's Solana option, fresh from a 402. */
async function solanaOption(url: string): Promise<PaymentRequirements> {
  const response = await fetch(url);
  expect(response.status).toBe(402);
  const required = decodePaymentRequiredHeader(response.headers.get("PAYMENT-REQUIRED") as string);
  const option = required.accepts.find((candidate) => candidate.network.startsWith("solana:"));
  expect(option).toBeDefined();
  return option as PaymentRequirements;
}

/** The official client's payment for `requirements` (what @x402/fetch would send). */
async function officialPayment(requirements: PaymentRequirements): Promise<PaymentPayload> {
  const scheme = new ExactSvmScheme(await buyerSigner(), { rpcUrl: solana.url });
  const { payload } = await scheme.createPaymentPayload(2, requirements);
  return { x402Version: 2, accepted: requirements, payload } as PaymentPayload;
}

/** A transaction signed by the buyer with our fee payer's place left empty, built from `instructions`. */
async function handBuilt(instructions: Instruction[], blockhash?: string) {
  const latest = (await solana.rpc.getLatestBlockhash().send()).value;
  const message = pipe(
    createTransactionMessage({ version: 0 }),
    (draft) => setTransactionMessageFeePayer(feePayer() as Address, draft),
    (draft) =>
      setTransactionMessageLifetimeUsingBlockhash(
        {
          blockhash: (blockhash ?? latest.blockhash) as Blockhash,
          lastValidBlockHeight: latest.lastValidBlockHeight,
        },
        draft,
      ),
    (draft) => appendTransactionMessageInstructions(instructions, draft),
  );
  return getBase64EncodedWireTransaction(await partiallySignTransactionMessageWithSigners(message));
}

async function transfer(options: { to?: Address; mint?: Address; units?: bigint }) {
  const mint = options.mint ?? solana.usdcMint;
  return getTransferCheckedInstruction({
    source: await associatedTokenAccount(localSolanaBuyer.address as Address, mint),
    mint,
    destination: options.to ?? (await associatedTokenAccount(solana.receiver as Address, mint)),
    authority: await buyerSigner(),
    amount: options.units ?? 5_000_000n,
    decimals: 6,
  });
}

const memo = (text: string): Instruction => ({
  programAddress: memoV2ProgramAddress,
  data: new TextEncoder().encode(text),
});

/** The compute budget's SetComputeUnitPrice (micro-lamports a unit). */
function unitPrice(microLamports: bigint): Instruction {
  const data = new Uint8Array(9);
  data[0] = 3;
  new DataView(data.buffer).setBigUint64(1, microLamports, true);
  return { programAddress: "ComputeBudget111111111111111111111111111111" as Address, data };
}

const send = (url: string, payment: PaymentPayload) =>
  fetch(url, { headers: { "PAYMENT-SIGNATURE": encodePaymentSignatureHeader(payment) } });

describe("x402 on Solana", () => {
  it("offers the local chain's USDC in every 402: our fee payer, the receiving wallet, a memo", async () => {
    const { url } = await app.paylink("5.00");
    const option = await solanaOption(url);
    expect(option).toMatchObject({
      scheme: "exact",
      network: devnetCaip2,
      asset: solana.usdcMint,
      payTo: solana.receiver,
      amount: "5000000",
      extra: { feePayer: feePayer(), memo: expect.any(String), quote: expect.any(String) },
    });
    expect((await solanaOption(url)).extra.memo).not.toBe(option.extra.memo);
  });

  it("is paid once by the official client (no SOL spent by the agent); a copy answers the same and moves nothing", async () => {
    const { url } = await app.paylink("5.00");
    const account = await receivingAccount();
    const [before, buyerLamports] = [await balanceOf(account), await lamportsOf(localSolanaBuyer.address)];
    const sent: string[] = [];
    // As an operator would: the client pays only tokens it knows until told (docs/agents.md).
    const client = new x402Client()
      .register("solana:*", new ExactSvmScheme(await buyerSigner(), { rpcUrl: solana.url }))
      .setSpendControls({ allowedAssets: [{ network: devnetCaip2, asset: solana.usdcMint }] });
    const recording: typeof fetch = async (input, init) => {
      const header = new Headers((input as Request).headers ?? init?.headers).get("PAYMENT-SIGNATURE");
      if (header) sent.push(header);
      return fetch(input, init);
    };
    const paid = await wrapFetchWithPayment(recording, client)(url);
    const body = await paid.json();
    expect(paid.status, JSON.stringify(body)).toBe(200);
    expect(body).toMatchObject({
      object: "x402_payment",
      network: devnetCaip2,
      payer: localSolanaBuyer.address,
    });
    expect(await balanceOf(account)).toBe(before + 5_000_000n);
    expect(await lamportsOf(localSolanaBuyer.address)).toBe(buyerLamports);
    const settlement = await db().x402Settlement.findFirstOrThrow({
      where: { transaction: body.transaction },
    });
    expect(settlement).toMatchObject({
      status: "SETTLED",
      payer: localSolanaBuyer.address,
      amount: expect.anything(),
    });

    await scanLocalSolana(solana);
    const invoice = await db().invoice.findUniqueOrThrow({
      where: { id: settlement.invoiceId },
      include: { payments: true, checkoutSession: true },
    });
    expect(invoice.status).toBe("CONFIRMED");
    expect(invoice.checkoutSession.status).toBe("COMPLETED");
    expect(invoice.payments).toMatchObject([
      { txHash: body.transaction, fromAddress: localSolanaBuyer.address },
    ]);
    expect(await db().event.count({ where: { invoiceId: invoice.id, type: "payment.confirmed" } })).toBe(1);

    expect(sent).toHaveLength(1);
    const replay = await fetch(url, { headers: { "PAYMENT-SIGNATURE": sent[0] } });
    expect(replay.status).toBe(200);
    expect((await replay.json()).transaction).toBe(body.transaction);
    expect(await balanceOf(account)).toBe(before + 5_000_000n);
    expect(await db().x402Settlement.count({ where: { invoiceId: invoice.id } })).toBe(1);
  });

  it("refuses the paid transaction sent again for a fresh quote (409), and nothing moves", async () => {
    const { url } = await app.paylink("5.00");
    const first = await officialPayment(await solanaOption(url));
    expect((await send(url, first)).status).toBe(200);
    const account = await receivingAccount();
    const before = await balanceOf(account);
    const fresh = await solanaOption(url);
    const answer = await send(url, { ...first, accepted: fresh });
    expect(answer.status).toBe(409);
    expect((await answer.json()).error.code).toBe("authorization_used");
    expect(await balanceOf(account)).toBe(before);
  });

  it("answers a copy sent to another resource while the first is in flight with a refusal, never the first's 200", async () => {
    const [a, b] = [await app.paylink("5.00"), await app.paylink("50.00")];
    const first = await officialPayment(await solanaOption(a.url));
    const paying = send(a.url, first);
    await new Promise((resolve) => setTimeout(resolve, 300));
    const copy = await send(b.url, { ...first, accepted: await solanaOption(b.url) });
    expect(copy.status).not.toBe(200);
    expect((await paying).status).toBe(200);
  });

  it("decides a Solana settlement its settler left SETTLING from the transaction recorded on it: landed, it is SETTLED", async () => {
    const { url } = await app.paylink("5.00");
    const paid = await send(url, await officialPayment(await solanaOption(url)));
    expect(paid.status).toBe(200);
    const { transaction } = await paid.json();
    const { id } = await db().x402Settlement.findFirstOrThrow({ where: { transaction } });
    const row = await db().x402Settlement.update({
      where: { id },
      data: { status: "SETTLING", updatedAt: new Date(0) },
    });
    expect(row).toMatchObject({
      signedTransaction: expect.any(String),
      lastValidHeight: expect.any(BigInt),
      signedSlot: expect.any(BigInt),
    });
    expect(await resolveStuckX402Settlements(db())).toBeGreaterThanOrEqual(1);
    expect(await db().x402Settlement.findUniqueOrThrow({ where: { id: row.id } })).toMatchObject({
      status: "SETTLED",
      transaction,
    });
  });

  const other = base58.encode(new Uint8Array(32).fill(7)) as Address;
  it.each<[string, (option: PaymentRequirements) => Promise<string>, string]>([
    [
      "another recipient",
      async (option) =>
        (await officialPayment({ ...option, payTo: localSolanaBuyer.address })).payload.transaction as string,
      "invalid_exact_svm_payload_recipient_mismatch",
    ],
    [
      "another mint",
      async (option) => handBuilt([await transfer({ mint: other }), memo(option.extra.memo as string)]),
      "invalid_exact_svm_payload_mint_mismatch",
    ],
    [
      "a wrong amount",
      async (option) =>
        (await officialPayment({ ...option, amount: "4000000" })).payload.transaction as string,
      "invalid_exact_svm_payload_amount_mismatch",
    ],
    [
      "a second transfer",
      async (option) =>
        handBuilt([await transfer({}), await transfer({}), memo(option.extra.memo as string)]),
      "invalid_exact_svm_payload_transaction_instructions_length",
    ],
    [
      "a SOL transfer from our fee payer",
      async (option) =>
        handBuilt([
          await transfer({}),
          memo(option.extra.memo as string),
          getTransferSolInstruction({
            source: { address: feePayer() as Address } as never,
            destination: localSolanaBuyer.address as Address,
            amount: 1_000_000n,
          }),
        ]),
      "invalid_exact_svm_payload_transaction_fee_payer_transferring_funds",
    ],
    [
      "the top price with no unit limit (the runtime's default units: four times the fee allowed)",
      async (option) =>
        handBuilt([unitPrice(5_000_000n), await transfer({}), memo(option.extra.memo as string)]),
      "invalid_exact_svm_payload_transaction_instructions_compute_price_instruction_too_high",
    ],
    [
      "an expired blockhash",
      async (option) => handBuilt([await transfer({}), memo(option.extra.memo as string)], other),
      "invalid_exact_svm_payload_blockhash_expired",
    ],
  ])("refuses %s with a stable code, and nothing moves", async (_name, build, code) => {
    const { url } = await app.paylink("5.00");
    const option = await solanaOption(url);
    const account = await receivingAccount();
    const [before, feePayerLamports] = [await balanceOf(account), await lamportsOf(feePayer())];
    const settlements = await db().x402Settlement.count();
    const answer = await send(url, {
      x402Version: 2,
      accepted: option,
      payload: { transaction: await build(option) },
    } as PaymentPayload);
    expect(answer.status).toBe(402);
    expect((await answer.json()).error.code).toBe(code);
    expect(await balanceOf(account)).toBe(before);
    expect(await lamportsOf(feePayer())).toBe(feePayerLamports);
    expect(await db().x402Settlement.count()).toBe(settlements);
  });
});
