// Solana invoices on the local Solana chain (LiteSVM behind the Solana JSON-RPC): the hosted page's
// start answers a Solana Pay transfer request, wallets pay it as Solana Pay wallets build transfers
// (TransferChecked into the receiving wallet's token account, the reference as a read-only key),
// and the watcher confirms the invoice by its reference.
import {
  createKeyPairFromPrivateKeyBytes,
  getBase64EncodedWireTransaction,
  getBase64Encoder,
  getCompiledTransactionMessageDecoder,
  getTransactionDecoder,
  signTransaction,
} from "@solana/kit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { POST as devnetPay } from "@/app/api/public/payments/[id]/devnet-pay/route";
import { POST as walletTransaction } from "@/app/api/public/payments/[id]/wallet-transaction/route";
import { localSolanaBuyer } from "@/lib/chains/solana/local-solana-accounts";
import { localSolanaTestWallet } from "@/lib/chains/solana/pay-from-local-test-wallet";
import { waitForConfirmed } from "@/lib/chains/solana/send-solana-pay-transfer";
import { db } from "@/lib/db/client";
import { callRoute } from "@/scripts/test-support/call-route";
import { scanLocalSolana, startSolanaInvoice, usdcUnits } from "@/scripts/test-support/solana-invoices";
import { startTestLocalSolana, type TestLocalSolana } from "@/scripts/test-support/test-local-solana";

let solana: TestLocalSolana;

beforeAll(async () => {
  solana = await startTestLocalSolana();
});
afterAll(() => solana?.stop());

const scan = () => scanLocalSolana(solana);
const invoiceRow = (id: string) =>
  db().invoice.findUniqueOrThrow({ where: { id }, include: { payments: true } });
const usdc = usdcUnits;

describe("a Solana invoice", () => {
  it("answers a Solana Pay transfer request that matches it", async () => {
    const request = await startSolanaInvoice("12.50");
    expect(request).toMatchObject({
      depositAddress: solana.receiver,
      tokenAddress: solana.usdcMint,
      amountDue: "12.500000",
      remaining: "12.500000",
    });
    expect(request.reference).toMatch(/^[1-9A-HJ-NP-Za-km-z]{32,44}$/);
    const uri = new URL(request.paymentUri);
    expect(uri.protocol).toBe("solana:");
    expect(uri.pathname).toBe(solana.receiver);
    expect(uri.searchParams.get("amount")).toBe("12.500000");
    expect(uri.searchParams.get("spl-token")).toBe(solana.usdcMint);
    expect(uri.searchParams.getAll("reference")).toEqual([request.reference]);
    expect(uri.searchParams.get("message")).toBe(`Invoice ${request.id}`);
    const row = await invoiceRow(request.id);
    expect(row).toMatchObject({ depositAddress: solana.receiver, reference: request.reference });
  });

  it("is confirmed by a wallet's transfer carrying its reference, with the payer and signature recorded", async () => {
    const request = await startSolanaInvoice("7");
    const signature = await solana.pay({
      recipient: request.depositAddress,
      units: usdc(7),
      references: [request.reference],
    });
    await scan();
    const row = await invoiceRow(request.id);
    expect(row.status).toBe("CONFIRMED");
    expect(row.amountPaid.toString()).toBe("7");
    expect(row.payments).toHaveLength(1);
    expect(row.payments[0]).toMatchObject({
      txHash: signature,
      fromAddress: localSolanaBuyer.address,
      status: "CONFIRMED",
    });
    const confirmed = await db().event.findMany({
      where: { invoiceId: request.id, type: "payment.confirmed" },
    });
    expect(confirmed).toHaveLength(1);
    expect(confirmed[0].payload).toMatchObject({
      network: "solana-local",
      token: "USDC",
      transactions: [signature],
    });
    await scan();
    expect(await db().payment.count({ where: { invoiceId: request.id } })).toBe(1);
  });

  it("is partly paid by an underpayment and confirmed by a top-up on the same reference", async () => {
    const request = await startSolanaInvoice("10");
    const first = await solana.pay({
      recipient: request.depositAddress,
      units: usdc(4),
      references: [request.reference],
    });
    await scan();
    expect((await invoiceRow(request.id)).status).toBe("PARTIALLY_PAID");
    const second = await solana.pay({
      recipient: request.depositAddress,
      units: usdc(6),
      references: [request.reference],
    });
    await scan();
    const row = await invoiceRow(request.id);
    expect(row.status).toBe("CONFIRMED");
    expect(row.amountPaid.toString()).toBe("10");
    expect(row.payments).toHaveLength(2);
    const [confirmed] = await db().event.findMany({
      where: { invoiceId: request.id, type: "payment.confirmed" },
    });
    expect((confirmed.payload as { transactions: string[] }).transactions).toEqual([first, second]);
  });

  // Other mints, failed transactions and v0 transactions: read-solana-transfers.test.ts.
  it("counts only transfers to the receiving wallet carrying its reference", async () => {
    const request = await startSolanaInvoice("5");
    const other = await startSolanaInvoice("5");
    // No reference: money reaches the receiving wallet but names no invoice.
    await solana.pay({ recipient: request.depositAddress, units: usdc(5), references: [] });
    // The reference, but to another wallet (the buyer's own token account).
    await solana.pay({
      recipient: localSolanaBuyer.address,
      units: usdc(5),
      references: [request.reference],
    });
    // Another invoice's reference.
    await solana.pay({ recipient: request.depositAddress, units: usdc(1), references: [other.reference] });
    await scan();
    expect((await invoiceRow(request.id)).payments).toHaveLength(0);
    expect((await invoiceRow(request.id)).status).toBe("AWAITING_PAYMENT");
    expect((await invoiceRow(other.id)).status).toBe("PARTIALLY_PAID");
  });

  it("is paid by the local chain's test wallet (the pay page's button), as a Solana Pay wallet pays", async () => {
    const request = await startSolanaInvoice("3.25");
    const paid = await callRoute(devnetPay, `/api/public/payments/${request.id}/devnet-pay`, {
      params: { id: request.id },
      body: {},
    });
    expect(paid.status, paid.text).toBe(200);
    expect(paid.json).toMatchObject({
      object: "devnet_payment",
      network: "solana-local",
      amount: "3.250000",
    });
    await scan();
    const row = await invoiceRow(request.id);
    expect(row.status).toBe("CONFIRMED");
    expect(row.payments[0]).toMatchObject({
      txHash: paid.json.txHash,
      fromAddress: localSolanaTestWallet.address,
    });
  });

  it("builds the transaction a browser wallet signs: the buyer's transfer of what is left, with the reference", async () => {
    const request = await startSolanaInvoice("8");
    await solana.pay({ recipient: request.depositAddress, units: usdc(3), references: [request.reference] });
    await scan();
    const built = await callRoute(
      walletTransaction,
      `/api/public/payments/${request.id}/wallet-transaction`,
      {
        params: { id: request.id },
        body: { account: localSolanaBuyer.address },
      },
    );
    expect(built.status, built.text).toBe(200);
    expect(built.json).toMatchObject({
      object: "wallet_transaction",
      network: "solana-local",
      chain: "solana:localnet",
    });
    const transaction = getTransactionDecoder().decode(getBase64Encoder().encode(built.json.transaction));
    const message = getCompiledTransactionMessageDecoder().decode(transaction.messageBytes);
    // The buyer alone signs (fee payer and authority); the reference rides along, read-only.
    expect(Object.keys(transaction.signatures)).toEqual([localSolanaBuyer.address]);
    expect(message.staticAccounts).toContain(request.reference);
    const keyPair = await createKeyPairFromPrivateKeyBytes(localSolanaBuyer.secretKey);
    const signed = await signTransaction([keyPair], transaction);
    const signature = await solana.rpc
      .sendTransaction(getBase64EncodedWireTransaction(signed), { encoding: "base64" })
      .send();
    await waitForConfirmed(solana.rpc, signature);
    await scan();
    const row = await invoiceRow(request.id);
    expect(row.status).toBe("CONFIRMED");
    expect(row.amountPaid.toString()).toBe("8");
  });

  it.each<[string, (ids: { solana: string; paid: string }) => { id: string; body: unknown }, number, string]>(
    [
      [
        "an unknown invoice",
        () => ({ id: "inv_nope", body: { account: localSolanaBuyer.address } }),
        404,
        "resource_missing",
      ],
      [
        "an EVM address",
        ({ solana }) => ({ id: solana, body: { account: "0x52908400098527886E0F7030069857D2E4169EE7" } }),
        400,
        "parameter_invalid",
      ],
      [
        "a token account, not a wallet",
        ({ solana }) => ({ id: solana, body: { account: "4gCPWF8bBHkuqd4w45pStd9BQ6SvBAoe6aUG5viDrLBb" } }),
        400,
        "parameter_invalid",
      ],
      ["no account", ({ solana }) => ({ id: solana, body: {} }), 400, "parameter_missing"],
      [
        "a paid invoice",
        ({ paid }) => ({ id: paid, body: { account: localSolanaBuyer.address } }),
        409,
        "nothing_to_pay",
      ],
    ],
  )("refuses %s", async (_case, make, status, code) => {
    const open = await startSolanaInvoice("1");
    const paid = await startSolanaInvoice("1");
    await solana.pay({ recipient: paid.depositAddress, units: usdc(1), references: [paid.reference] });
    await scan();
    const { id, body } = make({ solana: open.id, paid: paid.id });
    const refused = await callRoute(walletTransaction, `/api/public/payments/${id}/wallet-transaction`, {
      params: { id },
      body,
    });
    expect(refused.status, refused.text).toBe(status);
    expect(refused.json.error.code).toBe(code);
  });

  // Last in the file: it stops the chain.
  it("answers 503 while the local chain is down, for the test wallet and a browser wallet alike", async () => {
    const request = await startSolanaInvoice("1");
    await solana.stop();
    const paid = await callRoute(devnetPay, `/api/public/payments/${request.id}/devnet-pay`, {
      params: { id: request.id },
      body: {},
    });
    expect(paid.status, paid.text).toBe(503);
    const built = await callRoute(
      walletTransaction,
      `/api/public/payments/${request.id}/wallet-transaction`,
      {
        params: { id: request.id },
        body: { account: localSolanaBuyer.address },
      },
    );
    expect(built.status, built.text).toBe(503);
    expect((await invoiceRow(request.id)).payments).toHaveLength(0);
  });
});
