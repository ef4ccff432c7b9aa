// Refunds of Solana invoices on the local Solana chain (LiteSVM behind the Solana JSON-RPC), real
// PostgreSQL, the real signer: invoices paid as Solana Pay wallets pay them and confirmed by the
// watcher; refunds asked through the API, the domain or the claim page; what is no wallet refused
// before any refund exists; each refund read back on chain as the payee's token balance.
import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import path from "node:path";
import { type Address, generateKeyPairSigner } from "@solana/kit";
import { TOKEN_PROGRAM_ADDRESS } from "@solana-program/token";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { POST as createRefund } from "@/app/api/private/refunds/route";
import type { NetworkConfig } from "@/lib/chains/networks";
import { localSolanaBuyer } from "@/lib/chains/solana/local-solana-accounts";
import { associatedTokenAccount } from "@/lib/chains/solana/prepare-solana-transaction";
import { type SolanaKeyPair, solanaKeyPair, solanaServiceKey } from "@/lib/chains/solana/solana-keys";
import { topUpLocalWallet } from "@/lib/chains/solana/top-up-local-wallet";
import { config } from "@/lib/config";
import { db } from "@/lib/db/client";
import { bundledEntry } from "@/scripts/test-support/bundled-entry";
import { callRoute } from "@/scripts/test-support/call-route";
import { createTestOrganization, reportTestWallet } from "@/scripts/test-support/fixtures";
import { paidSolanaInvoice, usdcUnits } from "@/scripts/test-support/solana-invoices";
import { startTestLocalSolana, type TestLocalSolana } from "@/scripts/test-support/test-local-solana";
import { advanceTransferRefunds } from "./advance-transfer-refunds";
import { claimRefund, claimRefundSchema } from "./claim-refund";
import { claimTokenFor } from "./claim-token";
import { createRefund as createRefundAsked } from "./create-refund";
import { getRefundWallets } from "./get-refund-wallets";
import { reportTransferRefundWallets } from "./report-transfer-refund-wallets";

const root = path.resolve(import.meta.dirname, "../..");
let solana: TestLocalSolana;
let mnemonic: string;
let network: NetworkConfig;

beforeAll(async () => {
  solana = await startTestLocalSolana();
  process.env.SERVICE_DEV_MAILBOX = "true";
  mnemonic = process.env.SERVICE_HD_MNEMONIC as string;
  network = config().networks.find((candidate) => candidate.id === solana.network.id) as NetworkConfig;
});
afterAll(() => solana?.stop());

/** A wallet of its own with SOL for fees and `usdc` test USDC: the payer of one test's invoice. */
async function fundedPayer(usdc = 50): Promise<SolanaKeyPair> {
  const payer = solanaKeyPair(new Uint8Array(randomBytes(32)));
  await topUpLocalWallet(solana.rpc, payer.address, {
    mint: solana.usdcMint,
    decimals: 6,
    units: usdcUnits(usdc),
  });
  return payer;
}

/** A wallet's test USDC in base units (0 while it has no token account), and its SOL in lamports. */
async function balances(owner: string) {
  const account = await associatedTokenAccount(owner as Address, solana.usdcMint);
  const usdc = await solana.rpc
    .getTokenAccountBalance(account, { commitment: "confirmed" })
    .send()
    .then(({ value }) => BigInt(value.amount))
    .catch(() => 0n);
  const { value: lamports } = await solana.rpc
    .getBalance(owner as Address, { commitment: "confirmed" })
    .send();
  return { usdc, lamports };
}

/** Refund passes, the chain's slots advancing in between, until the refunds are done. */
async function refundUntilSettled(ids: string[]) {
  for (let round = 0; round < 40; round++) {
    await advanceTransferRefunds(db(), network, { mnemonic });
    const open = await db().refund.count({
      where: { id: { in: ids }, status: { in: ["PENDING", "SUBMITTED"] } },
    });
    if (open === 0) break;
    await new Promise((resolve) => setTimeout(resolve, 300));
  }
  return db().refund.findMany({ where: { id: { in: ids } }, include: { transactions: true } });
}

const eventCount = (refundId: string, type: string) =>
  db().event.count({ where: { type, payload: { path: ["refund", "id"], equals: refundId } } });

type Merchant = Awaited<ReturnType<typeof createTestOrganization>>;

function askRefund(merchant: Merchant, body: Record<string, unknown>) {
  return callRoute(createRefund, "/api/private/refunds", {
    headers: { ...merchant.auth, "idempotency-key": `refund-${Math.random()}` },
    body,
  });
}

describe("a refund of a Solana invoice to an address", () => {
  const freshWallet = async () => (await generateKeyPairSigner()).address;
  it.each<[string, () => Promise<string> | string, string]>([
    [
      "a wallet's token account",
      () => associatedTokenAccount(localSolanaBuyer.address as Address, solana.usdcMint),
      // Off the curve, as every associated token account is: refused by its spelling.
      "parameter_invalid",
    ],
    // On the curve, but the chain says what they are.
    ["the token's mint", () => solana.usdcMint, "address_not_wallet"],
    ["a program", () => TOKEN_PROGRAM_ADDRESS, "address_not_wallet"],
    [
      "an address off the curve (a token account not created yet)",
      async () => associatedTokenAccount(await freshWallet(), solana.usdcMint),
      "parameter_invalid",
    ],
    ["an EVM address", () => "0x52908400098527886E0F7030069857D2E4169EE7", "parameter_invalid"],
    // The service's own: paid there, the refund would come back as a payment (lib/wallets/find-service-wallet.ts).
    ["the network's shared receiving wallet", () => solana.receiver as string, "address_is_service_wallet"],
    [
      "the fee payer, as the signer reports it",
      () => reportTestWallet("gasWallet", solanaServiceKey(mnemonic, "feePayer").address),
      "address_is_service_wallet",
    ],
  ])("refuses %s: 400, and no refund", async (_case, destination, code) => {
    const merchant = await createTestOrganization();
    const invoice = await paidSolanaInvoice(solana, 3, merchant);
    const to = await destination();
    const refused = await askRefund(merchant, { invoiceId: invoice.id, destination: to });
    expect(refused.status, refused.text).toBe(400);
    expect(refused.json.error).toMatchObject({ code, param: "destination" });
    expect(await db().refund.count({ where: { invoiceId: invoice.id } })).toBe(0);
  });
});

describe("a refund of a Solana invoice", () => {
  it("to the payer lands on chain: the payer's token account rises by exactly the amount, once", async () => {
    const merchant = await createTestOrganization();
    const payer = await fundedPayer();
    const invoice = await paidSolanaInvoice(solana, 12, merchant, payer);
    const before = await balances(payer.address);
    const asked = await askRefund(merchant, { invoiceId: invoice.id, amount: "4.5", destination: "payer" });
    expect(asked.status, asked.text).toBe(200);
    expect(asked.json.data).toMatchObject({
      status: "pending",
      destination: "payer",
      toAddress: payer.address,
    });
    const [done] = await refundUntilSettled([asked.json.data.id]);
    expect(done.status).toBe("SUCCEEDED");
    expect(done.transactions).toHaveLength(1);
    expect(done.txHash).toBe(done.transactions[0].hash);
    const after = await balances(payer.address);
    expect(after.usdc - before.usdc).toBe(usdcUnits(4.5));
    // The fee payer paid the fee: the payer's SOL is untouched.
    expect(after.lamports).toBe(before.lamports);
    expect(await eventCount(done.id, "refund.succeeded")).toBe(1);
    await refundUntilSettled([done.id]);
    expect((await balances(payer.address)).usdc - before.usdc).toBe(usdcUnits(4.5));
  }, 60_000);

  it("to a base58 address an owner named creates its token account at the fee payer's cost", async () => {
    const merchant = await createTestOrganization();
    const invoice = await paidSolanaInvoice(solana, 6, merchant, await fundedPayer());
    const to = (await generateKeyPairSigner()).address;
    const { refund } = await createRefundAsked(db(), {
      organizationId: merchant.organization.id,
      request: { invoiceId: invoice.id, amount: "6", destination: to },
      requestedBy: { kind: "user", name: "owner@example.com", decision: "allow" },
      idempotency: null,
    });
    expect(refund).toMatchObject({ status: "PENDING", destination: "ADDRESS", toAddress: to });
    const [done] = await refundUntilSettled([refund?.id as string]);
    expect(done.status).toBe("SUCCEEDED");
    expect(await balances(to)).toEqual({ usdc: usdcUnits(6), lamports: 0n });
  }, 60_000);

  it("through a claim link answered with a base58 address; a mint is refused there with 400", async () => {
    const merchant = await createTestOrganization();
    const invoice = await paidSolanaInvoice(solana, 3, merchant, await fundedPayer());
    const { refund } = await createRefundAsked(db(), {
      organizationId: merchant.organization.id,
      request: { invoiceId: invoice.id, destination: "claim" },
      requestedBy: { kind: "user", name: "owner@example.com", decision: "allow" },
      idempotency: null,
    });
    const opened = refund as NonNullable<typeof refund>;
    expect(opened.status).toBe("PENDING_CLAIM");
    const token = claimTokenFor(opened.id, opened.claimExpiresAt as Date);
    const claim = (address: string) =>
      claimRefund(db(), claimRefundSchema.parse({ token, address, confirmAddress: address }));
    await expect(claim(solana.usdcMint)).rejects.toMatchObject({ status: 400, code: "address_not_wallet" });
    await expect(claim("0x52908400098527886E0F7030069857D2E4169EE7")).rejects.toMatchObject({
      status: 400,
      code: "address_invalid",
    });
    const to = (await generateKeyPairSigner()).address;
    expect(await claim(to)).toMatchObject({ status: "pending", toAddress: to });
    const [done] = await refundUntilSettled([opened.id]);
    expect(done.status).toBe("SUCCEEDED");
    expect((await balances(to)).usdc).toBe(usdcUnits(3));
  }, 60_000);

  it("to a payer the chain does not show (the payment row changed) is refused: failed with the reason, nothing sent", async () => {
    const merchant = await createTestOrganization();
    const invoice = await paidSolanaInvoice(solana, 4, merchant, await fundedPayer());
    const other = (await generateKeyPairSigner()).address;
    await db().payment.updateMany({ where: { invoiceId: invoice.id }, data: { fromAddress: other } });
    const asked = await askRefund(merchant, { invoiceId: invoice.id, destination: "payer" });
    expect(asked.json.data).toMatchObject({ status: "pending", toAddress: other });
    const [done] = await refundUntilSettled([asked.json.data.id]);
    expect(done).toMatchObject({ status: "FAILED", transactions: [] });
    expect(done.failureReason).toContain(`Refused to pay ${other}: no transfer from it`);
    expect(await balances(other)).toEqual({ usdc: 0n, lamports: 0n });
    expect(await eventCount(done.id, "refund.failed")).toBe(1);
  }, 60_000);

  it("after a SIGKILL between recording its transfer and confirming it, the next pass pays it once", async () => {
    const merchant = await createTestOrganization();
    const payer = await fundedPayer();
    const invoice = await paidSolanaInvoice(solana, 9, merchant, payer);
    const before = await balances(payer.address);
    const asked = await askRefund(merchant, { invoiceId: invoice.id, destination: "payer" });
    const id = asked.json.data.id as string;
    const child = spawn(process.execPath, [await bundledEntry("scripts/test-support/refund-pass.ts")], {
      cwd: root,
      stdio: "ignore",
      env: { ...process.env, LOG_LEVEL: "silent" },
    });
    const [code, signal] = await new Promise<[number | null, string | null]>((resolve) =>
      child.once("exit", (exitCode, exitSignal) => resolve([exitCode, exitSignal])),
    );
    expect(signal === "SIGKILL" || code !== 0).toBe(true);
    const recorded = await db().refund.findUniqueOrThrow({ where: { id }, include: { transactions: true } });
    expect(recorded.status).toBe("SUBMITTED");
    expect(recorded.transactions).toHaveLength(1);
    expect((await balances(payer.address)).usdc).toBe(before.usdc);

    const [done] = await refundUntilSettled([id]);
    expect(done.status).toBe("SUCCEEDED");
    expect(done.transactions.map((transaction) => transaction.hash)).toEqual([recorded.transactions[0].hash]);
    expect((await balances(payer.address)).usdc - before.usdc).toBe(usdcUnits(9));
    expect(await eventCount(id, "refund.succeeded")).toBe(1);
  }, 120_000);
});

describe("each organization's Solana refund wallet", () => {
  it("is its own key, funded on the local chain at need, and reported with balances in USDC and SOL", async () => {
    const merchant = await createTestOrganization();
    const invoice = await paidSolanaInvoice(solana, 2, merchant, await fundedPayer());
    await askRefund(merchant, { invoiceId: invoice.id, destination: "payer" });
    const address = solanaServiceKey(mnemonic, "refund", merchant.organization.refundWalletIndex).address;
    await advanceTransferRefunds(db(), network, { mnemonic });
    await reportTransferRefundWallets(db(), network, mnemonic);
    const [wallet] = await getRefundWallets(db(), merchant.organization.id);
    expect(wallet).toMatchObject({ network: "solana-local", address, low: false, paysFees: false });
    expect(wallet.balances.map((balance) => balance.unit)).toEqual(["SOL", "USDC"]);
    const held = await balances(address);
    expect(wallet.balances[1].amount).toBe(String(Number(held.usdc) / 1e6));
  }, 60_000);
});
