// The signing role's Solana token transfer on the local chain over JSON-RPC: prepared once and
// stored, followed (and resent) as often as a process likes or after a crash, it pays exactly once.
// The chain's clock is the test's, so slots (confirmations, blockhash expiry) move only by hand.
import {
  type Address,
  type Base64EncodedWireTransaction,
  createDefaultRpcTransport,
  createSolanaRpc,
  createSolanaRpcFromTransport,
  generateKeyPairSigner,
  type Signature,
} from "@solana/kit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ensureTokenAccount } from "./ensure-token-account";
import { followTokenTransfer } from "./follow-token-transfer";
import { localSolanaBuyer, localSolanaMnemonic } from "./local-solana-accounts";
import { airdropLocalSol, mintLocalTestUsdc } from "./local-solana-funds";
import { associatedTokenAccount, type PreparedSolanaTransaction } from "./prepare-solana-transaction";
import { prepareTokenTransfer } from "./prepare-token-transfer";
import { solanaServiceKey } from "./solana-keys";
import { lamportsPerSignature } from "./solana-rpc-transactions";
import { type LocalSolana, startLocalSolana } from "./start-local-solana";

const slotMs = 400;
const finalityDepth = 32;
let clock = Date.UTC(2026, 0, 1);
/** Moves the chain's clock on by `slots` slots. */
const advance = (slots: number) => {
  clock += slots * slotMs;
};

const source = solanaServiceKey(localSolanaMnemonic, "refund");
const feePayer = solanaServiceKey(localSolanaMnemonic, "feePayer");
const receiving = solanaServiceKey(localSolanaMnemonic, "receiving");
/** What a new token account's rent costs (165 bytes, rent-exempt). */
const tokenAccountRent = 2_039_280n;
/** The source's test USDC at start, in base units. */
const sourceUnits = 100_000_000n;

let local: LocalSolana;
let rpc: ReturnType<typeof createSolanaRpc>;
let usdc: Address;

beforeAll(async () => {
  local = await startLocalSolana({ port: 0, chain: { slotMs, finalityDepth, now: () => clock } });
  rpc = createSolanaRpc(local.url);
  usdc = local.usdcMint;
  // The fee payer holds SOL; the source holds only USDC: it never pays a fee or any rent.
  await airdropLocalSol(local.chain, feePayer.address as Address, 10_000_000_000n);
  await mintLocalTestUsdc(local.chain, source.address as Address, sourceUnits);
});
afterAll(() => local?.stop());

const sol = async (owner: string) => (await rpc.getBalance(owner as Address).send()).value;
/** An owner's test USDC in base units; 0 when it has no token account. */
async function usdcOf(owner: string): Promise<bigint> {
  const tokenAccount = await associatedTokenAccount(owner as Address, usdc);
  const { value } = await rpc.getAccountInfo(tokenAccount, { encoding: "base64" }).send();
  if (!value) return 0n;
  return BigInt((await rpc.getTokenAccountBalance(tokenAccount).send()).value.amount);
}
const balances = async (wallet: string) => ({
  sourceUsdc: await usdcOf(source.address),
  walletUsdc: await usdcOf(wallet),
  feePayerSol: await sol(feePayer.address),
  sourceSol: await sol(source.address),
});

const prepareOutcome = (
  destination: string,
  units: bigint,
  options: { memo?: string; from?: typeof source; existingAccountOnly?: boolean } = {},
) =>
  prepareTokenTransfer(rpc, {
    source: options.from ?? source,
    feePayer,
    mint: usdc,
    decimals: 6,
    destination,
    units,
    memo: options.memo,
    existingAccountOnly: options.existingAccountOnly,
  });
/** Prepares a transfer (from the source unless told), failing the test when it is refused. */
async function prepare(...args: Parameters<typeof prepareOutcome>) {
  const outcome = await prepareOutcome(...args);
  if (outcome.state !== "prepared") throw new Error(`refused: ${outcome.reason}`);
  return outcome.transaction;
}
const follow = (prepared: PreparedSolanaTransaction, commitment: "confirmed" | "finalized" = "confirmed") =>
  followTokenTransfer(rpc, prepared, commitment);
/** Sends the stored bytes straight to the node, as an earlier process (or anyone holding them) may. */
const sendRaw = (prepared: PreparedSolanaTransaction, skipPreflight = true) =>
  rpc
    .sendTransaction(prepared.wire as Base64EncodedWireTransaction, { encoding: "base64", skipPreflight })
    .send();
/** A new wallet address with no account on chain at all. */
const freshWallet = async () => (await generateKeyPairSigner()).address;

describe("a prepared token transfer", () => {
  it("pays exactly once however often it is followed and resent, creating the token account at the fee payer's cost", async () => {
    const wallet = await freshWallet();
    const before = await balances(wallet);
    const prepared = await prepare(wallet, 1_500_000n, { memo: "refund rf_123" });
    // Preparing signs and sends nothing.
    expect(await balances(wallet)).toEqual(before);
    expect(await follow(prepared)).toEqual({ state: "pending" });
    // Seen in this slot (processed), not yet confirmed: followed again, it is not sent again.
    expect(await follow(prepared)).toEqual({ state: "pending" });
    await sendRaw(prepared);
    await sendRaw(prepared);
    advance(1);
    const confirmed = await follow(prepared);
    expect(confirmed).toEqual({ state: "confirmed", slot: expect.any(BigInt) });
    expect(await follow(prepared, "finalized")).toEqual({ state: "pending" });
    advance(finalityDepth);
    expect(await follow(prepared, "finalized")).toEqual(confirmed);
    expect(await follow(prepared)).toEqual(confirmed);
    expect(await balances(wallet)).toEqual({
      sourceUsdc: before.sourceUsdc - 1_500_000n,
      walletUsdc: 1_500_000n,
      // Two signatures (fee payer and source) and the new token account's rent.
      feePayerSol: before.feePayerSol - 2n * lamportsPerSignature - tokenAccountRent,
      sourceSol: 0n,
    });
    const [history] = await rpc.getSignaturesForAddress(wallet).send();
    expect(history).toMatchObject({ signature: prepared.signature, err: null });
    expect(history.memo).toContain("refund rf_123");
  });

  it("to a wallet that already has its token account costs the fee payer only the fee", async () => {
    const wallet = localSolanaBuyer.address;
    const before = await balances(wallet);
    const prepared = await prepare(wallet, 250_000n);
    await follow(prepared);
    advance(1);
    expect(await follow(prepared)).toMatchObject({ state: "confirmed" });
    expect(await balances(wallet)).toEqual({
      sourceUsdc: before.sourceUsdc - 250_000n,
      walletUsdc: before.walletUsdc + 250_000n,
      feePayerSol: before.feePayerSol - 2n * lamportsPerSignature,
      sourceSol: 0n,
    });
  });

  it("told to pay only an existing token account, refuses a wallet without one and pays one that has it", async () => {
    const wallet = await freshWallet();
    const before = await balances(wallet);
    expect(await prepareOutcome(wallet, 1n, { existingAccountOnly: true })).toEqual({
      state: "refused",
      reason: "no_token_account",
    });
    expect(await balances(wallet)).toEqual(before);
    const prepared = await prepare(localSolanaBuyer.address, 1n, { existingAccountOnly: true });
    await follow(prepared);
    advance(1);
    expect(await follow(prepared)).toMatchObject({ state: "confirmed" });
  });

  it("may have the fee payer as its source: one signature, one fee", async () => {
    const wallet = await freshWallet();
    await mintLocalTestUsdc(local.chain, feePayer.address as Address, 5_000_000n);
    const before = await sol(feePayer.address);
    const prepared = await prepare(wallet, 5_000_000n, { from: feePayer });
    await follow(prepared);
    advance(1);
    expect(await follow(prepared)).toMatchObject({ state: "confirmed" });
    expect([await usdcOf(feePayer.address), await usdcOf(wallet)]).toEqual([0n, 5_000_000n]);
    expect(await sol(feePayer.address)).toBe(before - lamportsPerSignature - tokenAccountRent);
  });

  it.each([
    ["before it was ever sent", false],
    ["after it was sent, before it was recorded as sent", true],
  ])(
    "survives a crash %s: followed from the stored record alone, it pays once",
    async (_case, sentBeforeCrash) => {
      const wallet = await freshWallet();
      const before = await balances(wallet);
      // The process prepares, stores the record (as a database row would hold it), perhaps sends, dies.
      let stored: string;
      {
        const prepared = await prepare(wallet, 700_000n);
        stored = JSON.stringify({
          ...prepared,
          lastValidBlockHeight: prepared.lastValidBlockHeight.toString(),
        });
        if (sentBeforeCrash) await sendRaw(prepared, false);
      }
      // A new process knows only the record.
      const row = JSON.parse(stored) as { signature: string; wire: string; lastValidBlockHeight: string };
      const record = { ...row, lastValidBlockHeight: BigInt(row.lastValidBlockHeight) };
      expect(await follow(record)).toEqual({ state: "pending" });
      advance(1);
      expect(await follow(record)).toMatchObject({ state: "confirmed" });
      expect(await follow(record)).toMatchObject({ state: "confirmed" });
      expect(await balances(wallet)).toEqual({
        sourceUsdc: before.sourceUsdc - 700_000n,
        walletUsdc: 700_000n,
        feePayerSol: before.feePayerSol - 2n * lamportsPerSignature - tokenAccountRent,
        sourceSol: 0n,
      });
    },
  );

  it("expires once its blockhash is past and the chain never saw it, and never lands after", async () => {
    const wallet = await freshWallet();
    const before = await balances(wallet);
    const prepared = await prepare(wallet, 1_000_000n);
    // Past the blockhash's 150 blocks, but not yet finalized past them: it might still be in a block.
    advance(151);
    expect(await follow(prepared)).toEqual({ state: "pending", rejected: expect.any(String) });
    advance(finalityDepth);
    expect(await follow(prepared)).toEqual({ state: "expired" });
    await sendRaw(prepared);
    advance(1);
    expect(await follow(prepared)).toEqual({ state: "expired" });
    expect(await balances(wallet)).toEqual(before);
    expect((await rpc.getSignatureStatuses([prepared.signature as Signature]).send()).value).toEqual([null]);
  });

  it("that landed is not called expired by a node behind, which has not seen the slot that ended its lifetime", async () => {
    const wallet = await freshWallet();
    const prepared = await prepare(wallet, 250_000n);
    await sendRaw(prepared);
    advance(151 + finalityDepth);
    // Another node behind the same address: it answers the status as of a slot before the
    // transfer's, and so knows nothing of it.
    const transport = createDefaultRpcTransport({ url: local.url });
    const behind = createSolanaRpcFromTransport(async (request) => {
      const payload = request.payload as { id: number; method: string; params: [string[]] };
      if (payload.method !== "getSignatureStatuses") return transport(request);
      const value = payload.params[0].map(() => null);
      return { jsonrpc: "2.0", id: payload.id, result: { context: { slot: 1 }, value } } as never;
    });
    expect(await followTokenTransfer(behind, prepared, "confirmed")).toEqual({ state: "pending" });
    expect(await follow(prepared)).toEqual({ state: "confirmed", slot: expect.any(BigInt) });
    expect(await usdcOf(wallet)).toBe(250_000n);
  });

  it("that the node refuses (the source is short) stays pending with the reason until it expires, moving nothing", async () => {
    const wallet = await freshWallet();
    const before = await balances(wallet);
    const prepared = await prepare(wallet, before.sourceUsdc + 1n);
    const refused = await follow(prepared);
    expect(refused).toEqual({ state: "pending", rejected: expect.stringMatching(/custom program error/i) });
    advance(151 + finalityDepth);
    expect(await follow(prepared)).toEqual({ state: "expired" });
    expect(await balances(wallet)).toEqual(before);
  });

  it("that landed and failed reports the chain's error once at the commitment, its fee charged and nothing moved", async () => {
    const wallet = await freshWallet();
    const before = await balances(wallet);
    const prepared = await prepare(wallet, before.sourceUsdc + 1n);
    // Sent without simulation by an earlier attempt: it lands, fails and pays its fee.
    await sendRaw(prepared);
    expect(await follow(prepared)).toEqual({ state: "pending" });
    advance(1);
    // Instruction 1 (the TransferChecked) failed with the Token program's InsufficientFunds (1).
    expect(await follow(prepared)).toEqual({
      state: "failed",
      slot: expect.any(BigInt),
      error: { InstructionError: [1n, { Custom: 1n }] },
    });
    expect(await balances(wallet)).toEqual({
      ...before,
      feePayerSol: before.feePayerSol - 2n * lamportsPerSignature,
    });
  });

  it.each<[string, { units?: bigint; memo?: string; destination?: string }, string]>([
    ["no units", { units: 0n }, "invalid_amount"],
    ["more units than a u64", { units: 2n ** 64n }, "invalid_amount"],
    ["an empty memo", { memo: "" }, "invalid_memo"],
    ["a memo over 256 bytes", { memo: "é".repeat(129) }, "invalid_memo"],
    ["a destination that is a token account", { destination: "buyer-usdc" }, "token_account"],
    [
      "a destination that is no address",
      { destination: "0x52908400098527886E0F7030069857D2E4169EE7" },
      "invalid_address",
    ],
  ])("is refused for %s, signing and sending nothing", async (_case, change, reason) => {
    const destination =
      change.destination === "buyer-usdc"
        ? await associatedTokenAccount(localSolanaBuyer.address as Address, usdc)
        : (change.destination ?? (await freshWallet()));
    const count = await rpc.getTransactionCount({ commitment: "processed" }).send();
    expect(await prepareOutcome(destination, change.units ?? 1n, { memo: change.memo })).toEqual({
      state: "refused",
      reason,
    });
    expect(await rpc.getTransactionCount({ commitment: "processed" }).send()).toBe(count);
  });
});

describe("ensureTokenAccount", () => {
  it("creates the receiving wallet's token account once, at the fee payer's cost, then finds it", async () => {
    const owner = receiving.address as Address;
    const before = await sol(feePayer.address);
    const first = await ensureTokenAccount(rpc, { owner, mint: usdc, feePayer });
    expect(first).toEqual({
      tokenAccount: await associatedTokenAccount(owner, usdc),
      state: "sent",
      signature: expect.any(String),
    });
    const count = await rpc.getTransactionCount({ commitment: "processed" }).send();
    expect(await ensureTokenAccount(rpc, { owner, mint: usdc, feePayer })).toEqual({
      tokenAccount: first.tokenAccount,
      state: "exists",
    });
    expect(await rpc.getTransactionCount({ commitment: "processed" }).send()).toBe(count);
    expect(await usdcOf(owner)).toBe(0n);
    expect(await sol(feePayer.address)).toBe(before - lamportsPerSignature - tokenAccountRent);
    expect(await sol(owner)).toBe(0n);
  });
});
