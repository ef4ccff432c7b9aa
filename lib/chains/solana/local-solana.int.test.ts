// The local Solana chain as a client sees it: real HTTP, @solana/kit as the independent client,
// transactions built and signed as wallets build them. The chain's clock is the test's, so slots
// (and with them confirmations and blockhash expiry) move only when a test moves it.
import {
  AccountRole,
  type Address,
  type Base64EncodedWireTransaction,
  createSolanaRpc,
  devnet,
  generateKeyPairSigner,
  getBase64Encoder,
  getTransactionDecoder,
  type Instruction,
  isSolanaError,
  type KeyPairSigner,
  type Signature,
  SOLANA_ERROR__INSTRUCTION_ERROR__CUSTOM,
  SOLANA_ERROR__JSON_RPC__SERVER_ERROR_SEND_TRANSACTION_PREFLIGHT_FAILURE,
  SOLANA_ERROR__TRANSACTION_ERROR__ALREADY_PROCESSED,
  SOLANA_ERROR__TRANSACTION_ERROR__BLOCKHASH_NOT_FOUND,
  signature as toSignature,
} from "@solana/kit";
import { getTransferSolInstruction } from "@solana-program/system";
import {
  findAssociatedTokenPda,
  getCreateAssociatedTokenIdempotentInstruction,
  getTransferCheckedInstruction,
  TOKEN_PROGRAM_ADDRESS,
} from "@solana-program/token";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { localSolanaBuyer, solanaDevnetGenesisHash } from "./local-solana-accounts";
import { localSigner, signLocalTransaction } from "./sign-local-transaction";
import { lamportsPerSignature } from "./solana-rpc-transactions";
import { type LocalSolana, startLocalSolana } from "./start-local-solana";

const slotMs = 400;
let clock = Date.UTC(2026, 0, 1);
/** Moves the chain's clock on by `slots` slots. */
const advance = (slots: number) => {
  clock += slots * slotMs;
};

let local: LocalSolana;
/** A kit client of the local chain, typed as a test cluster's (requestAirdrop). */
const clientOf = (url: string) => createSolanaRpc(devnet(url));
let rpc: ReturnType<typeof clientOf>;
let buyer: KeyPairSigner;
let usdc: Address;

beforeAll(async () => {
  local = await startLocalSolana({ port: 0, chain: { slotMs, finalityDepth: 32, now: () => clock } });
  rpc = clientOf(local.url);
  buyer = await localSigner(localSolanaBuyer);
  usdc = local.usdcMint;
});
afterAll(() => local?.stop());

/** Signs `instructions` with `payer` paying the fee and sends them over the RPC; returns the signature. */
async function send(
  instructions: Instruction[],
  options: {
    payer?: KeyPairSigner;
    skipPreflight?: boolean;
    version?: "legacy" | 0;
    computeUnits?: { limit: number; microLamports: bigint };
  } = {},
): Promise<Signature> {
  const { value: lifetime } = await rpc.getLatestBlockhash().send();
  const signed = await signLocalTransaction({
    payer: options.payer ?? buyer,
    instructions,
    lifetime,
    version: options.version,
    computeUnits: options.computeUnits,
  });
  return rpc
    .sendTransaction(signed.base64 as Base64EncodedWireTransaction, {
      encoding: "base64",
      skipPreflight: options.skipPreflight,
    })
    .send();
}

const balance = async (address: Address) => (await rpc.getBalance(address).send()).value;
const usdcAccount = async (owner: Address) =>
  (await findAssociatedTokenPda({ owner, mint: usdc, tokenProgram: TOKEN_PROGRAM_ADDRESS }))[0];
const usdcBalance = async (owner: Address) =>
  (await rpc.getTokenAccountBalance(await usdcAccount(owner)).send()).value.amount;
const status = async (signature: Signature) => (await rpc.getSignatureStatuses([signature]).send()).value[0];

/** A new wallet holding `sol` SOL (from the chain's faucet, finalized). */
async function fundedWallet(sol: bigint): Promise<KeyPairSigner> {
  const wallet = await generateKeyPairSigner();
  await rpc.requestAirdrop(wallet.address, (sol * 1_000_000_000n) as never).send();
  return wallet;
}

/** USDC in its base units (6 decimals). */
const units = (usdcAmount: number) => BigInt(usdcAmount * 1_000_000);

/** A transfer as Solana Pay wallets build it: create the recipient's token account if needed, then TransferChecked. */
async function usdcTransfer(from: KeyPairSigner, to: Address, amount: bigint, reference?: Address) {
  const transfer = getTransferCheckedInstruction({
    source: await usdcAccount(from.address),
    mint: usdc,
    destination: await usdcAccount(to),
    authority: from,
    amount,
    decimals: 6,
  });
  return [
    getCreateAssociatedTokenIdempotentInstruction({
      payer: from,
      ata: await usdcAccount(to),
      owner: to,
      mint: usdc,
    }),
    // The reference rides on the transfer as a read-only, non-signer key (the Solana Pay spec).
    reference
      ? { ...transfer, accounts: [...transfer.accounts, { address: reference, role: AccountRole.READONLY }] }
      : transfer,
  ];
}

describe("the local Solana chain over JSON-RPC", () => {
  it("answers as a cluster: health, version, devnet's genesis hash, a clock that moves", async () => {
    expect(await rpc.getHealth().send()).toBe("ok");
    expect(await rpc.getGenesisHash().send()).toBe(solanaDevnetGenesisHash);
    expect((await rpc.getVersion().send())["solana-core"]).toMatch(/^\d+\.\d+\.\d+$/);
    const slot = await rpc.getSlot({ commitment: "processed" }).send();
    advance(5);
    expect(await rpc.getSlot({ commitment: "processed" }).send()).toBe(slot + 5n);
    expect(await rpc.getSlot({ commitment: "confirmed" }).send()).toBe(slot + 4n);
    expect(await rpc.getBlockHeight({ commitment: "processed" }).send()).toBe(slot + 5n);
    const epoch = await rpc.getEpochInfo({ commitment: "processed" }).send();
    expect(epoch).toMatchObject({ absoluteSlot: slot + 5n, epoch: 0n, slotsInEpoch: 432_000n });
    expect(await rpc.getMinimumBalanceForRentExemption(165n).send()).toBe(2_039_280n);
  });

  it("starts with the test buyer holding 100 SOL and 10,000 test USDC", async () => {
    expect(await balance(buyer.address)).toBe(100_000_000_000n);
    expect(await usdcBalance(buyer.address)).toBe("10000000000");
    const { value: accounts } = await rpc
      .getTokenAccountsByOwner(buyer.address, { mint: usdc }, { encoding: "jsonParsed" })
      .send();
    expect(accounts.map((entry) => entry.account.data.parsed.info.tokenAmount.uiAmountString)).toEqual([
      "10000",
    ]);
    const { value: supply } = await rpc.getTokenSupply(usdc).send();
    expect(supply).toMatchObject({ decimals: 6, uiAmountString: "10000" });
  });

  it("hands out a new blockhash each slot, each valid for 150 blocks", async () => {
    const first = (await rpc.getLatestBlockhash().send()).value;
    advance(1);
    const second = (await rpc.getLatestBlockhash().send()).value;
    expect(second.blockhash).not.toBe(first.blockhash);
    expect(second.lastValidBlockHeight).toBe(first.lastValidBlockHeight + 1n);
    expect((await rpc.isBlockhashValid(first.blockhash).send()).value).toBe(true);
    advance(150);
    expect((await rpc.isBlockhashValid(first.blockhash).send()).value).toBe(false);
    expect((await rpc.isBlockhashValid(second.blockhash).send()).value).toBe(true);
  });

  it("moves SOL, charging the fee getFeeForMessage quotes (one and two signatures, and a priority fee)", async () => {
    const sender = await fundedWallet(2n);
    const receiver = await generateKeyPairSigner();
    const before = await balance(buyer.address);
    const one = await send([
      getTransferSolInstruction({ source: buyer, destination: receiver.address, amount: 1_000_000n }),
    ]);
    // The buyer pays the fee, the sender the SOL: two signatures.
    const two = await send([
      getTransferSolInstruction({ source: sender, destination: receiver.address, amount: 2_000_000n }),
    ]);
    const priced = await send(
      [getTransferSolInstruction({ source: buyer, destination: receiver.address, amount: 3_000_000n })],
      { computeUnits: { limit: 200_000, microLamports: 10_000n } },
    );
    advance(32);
    const fees = [];
    for (const signature of [one, two, priced]) {
      const transaction = await rpc
        .getTransaction(signature, { encoding: "base64", maxSupportedTransactionVersion: 0 })
        .send();
      const wire = getTransactionDecoder().decode(
        getBase64Encoder().encode(transaction?.transaction[0] ?? ""),
      );
      const quoted = await rpc
        .getFeeForMessage(Buffer.from(wire.messageBytes).toString("base64") as never)
        .send();
      expect(transaction?.meta?.fee).toBe(quoted.value ?? undefined);
      fees.push(transaction?.meta?.fee);
    }
    // 5000 a signature; 200,000 units at 10,000 micro-lamports add 2,000 lamports.
    expect(fees).toEqual([lamportsPerSignature, 2n * lamportsPerSignature, lamportsPerSignature + 2_000n]);
    expect(await balance(receiver.address)).toBe(6_000_000n);
    expect(await balance(buyer.address)).toBe(
      before - 1_000_000n - 3_000_000n - 4n * lamportsPerSignature - 2_000n,
    );
  });

  it("pays USDC Solana Pay style: an idempotent token account, TransferChecked, found by its reference key", async () => {
    const merchant = await generateKeyPairSigner();
    const reference = (await generateKeyPairSigner()).address;
    const signature = await send(await usdcTransfer(buyer, merchant.address, units(12.5), reference));
    expect(await usdcBalance(merchant.address)).toBe("12500000");
    // Found once confirmed (kit's default commitment); at finalized once rooted.
    const finalized = () => rpc.getSignaturesForAddress(reference, { commitment: "finalized" }).send();
    expect(await rpc.getSignaturesForAddress(reference).send()).toEqual([]);
    advance(1);
    const found = await rpc.getSignaturesForAddress(reference).send();
    expect(found).toMatchObject([{ signature, err: null, confirmationStatus: "confirmed" }]);
    expect(await finalized()).toEqual([]);
    advance(31);
    expect((await finalized()).map((entry) => entry.signature)).toEqual([signature]);

    const parsed = await rpc
      .getTransaction(signature, { encoding: "jsonParsed", maxSupportedTransactionVersion: 0 })
      .send();
    const transfer = parsed?.transaction.message.instructions[1] as unknown as {
      parsed: { type: string; info: Record<string, unknown> };
    };
    expect(transfer.parsed.type).toBe("transferChecked");
    expect(transfer.parsed.info).toMatchObject({
      mint: usdc,
      authority: buyer.address,
      destination: await usdcAccount(merchant.address),
      tokenAmount: { amount: "12500000", decimals: 6n },
    });
    const keys = parsed?.transaction.message.accountKeys ?? [];
    expect(keys.find((key) => key.pubkey === reference)).toMatchObject({ signer: false, writable: false });
    expect(
      parsed?.meta?.postTokenBalances?.find((entry) => entry.owner === merchant.address)?.uiTokenAmount,
    ).toMatchObject({
      amount: "12500000",
      uiAmountString: "12.5",
    });
    expect(parsed?.meta?.preTokenBalances?.find((entry) => entry.owner === merchant.address)).toBeUndefined();
  });

  it("runs v0 transactions, which getTransaction shows only to clients that accept them", async () => {
    const receiver = await generateKeyPairSigner();
    const signature = await send(await usdcTransfer(buyer, receiver.address, units(1)), { version: 0 });
    advance(32);
    expect(await usdcBalance(receiver.address)).toBe("1000000");
    await expect(rpc.getTransaction(signature, { encoding: "json" }).send()).rejects.toThrow(
      /maxSupportedTransactionVersion/,
    );
    const found = await rpc
      .getTransaction(signature, { encoding: "json", maxSupportedTransactionVersion: 0 })
      .send();
    expect(found?.version).toBe(0);
  });

  it("reports confirmation as slots pass: processed, confirmed, finalized", async () => {
    const receiver = await generateKeyPairSigner();
    const signature = await send([
      getTransferSolInstruction({ source: buyer, destination: receiver.address, amount: 1_000_000n }),
    ]);
    expect(await status(signature)).toMatchObject({
      confirmationStatus: "processed",
      confirmations: 0n,
      err: null,
    });
    const atFinalized = () =>
      rpc.getTransaction(signature, { commitment: "finalized", encoding: "json" }).send();
    expect(
      await rpc.getTransaction(signature, { commitment: "confirmed", encoding: "json" }).send(),
    ).toBeNull();
    advance(1);
    expect(await status(signature)).toMatchObject({ confirmationStatus: "confirmed", confirmations: 1n });
    expect(
      await rpc.getTransaction(signature, { commitment: "confirmed", encoding: "json" }).send(),
    ).not.toBeNull();
    expect(await atFinalized()).toBeNull();
    advance(31);
    expect(await status(signature)).toMatchObject({ confirmationStatus: "finalized", confirmations: null });
    expect((await atFinalized())?.meta?.err).toBeNull();
    expect((await rpc.getSignatureStatuses([toSignature("1".repeat(64))]).send()).value).toEqual([null]);
  });

  it("refuses a failing transaction in preflight, and records it with its error and fee without preflight", async () => {
    const receiver = await generateKeyPairSigner();
    const tooMuch = await usdcTransfer(buyer, receiver.address, units(1_000_000));
    const refused = await send(tooMuch).catch((error: unknown) => error);
    expect(
      isSolanaError(refused, SOLANA_ERROR__JSON_RPC__SERVER_ERROR_SEND_TRANSACTION_PREFLIGHT_FAILURE),
    ).toBe(true);
    // The token program's InsufficientFunds is its custom error 1, in the transfer (instruction 1).
    const cause = (refused as Error).cause;
    expect(isSolanaError(cause, SOLANA_ERROR__INSTRUCTION_ERROR__CUSTOM)).toBe(true);
    expect((cause as { context: unknown }).context).toMatchObject({ code: 1, index: 1 });

    const before = await balance(buyer.address);
    const usdcBefore = await usdcBalance(buyer.address);
    const signature = await send(tooMuch, { skipPreflight: true });
    expect(await status(signature)).toMatchObject({ err: { InstructionError: [1n, { Custom: 1n }] } });
    expect(await balance(buyer.address)).toBe(before - lamportsPerSignature);
    expect(await usdcBalance(buyer.address)).toBe(usdcBefore);
    advance(1);
    const history = await rpc.getSignaturesForAddress(receiver.address, { commitment: "confirmed" }).send();
    expect(history).toMatchObject([{ signature, err: { InstructionError: [1n, { Custom: 1n }] } }]);
  });

  it("refuses an expired blockhash and a replay", async () => {
    const receiver = await generateKeyPairSigner();
    const { value: old } = await rpc.getLatestBlockhash().send();
    const transfer = [
      getTransferSolInstruction({ source: buyer, destination: receiver.address, amount: 5_000_000n }),
    ];
    const signed = await signLocalTransaction({ payer: buyer, instructions: transfer, lifetime: old });
    const sendSigned = () =>
      rpc.sendTransaction(signed.base64 as Base64EncodedWireTransaction, { encoding: "base64" }).send();
    expect(await sendSigned()).toBe(signed.signature);
    const replay = await sendSigned().catch((error: unknown) => error);
    expect(isSolanaError((replay as Error).cause, SOLANA_ERROR__TRANSACTION_ERROR__ALREADY_PROCESSED)).toBe(
      true,
    );

    const late = await signLocalTransaction({
      payer: buyer,
      instructions: [
        getTransferSolInstruction({ source: buyer, destination: receiver.address, amount: 6_000_000n }),
      ],
      lifetime: old,
    });
    advance(151);
    const expired = await rpc
      .sendTransaction(late.base64 as Base64EncodedWireTransaction, { encoding: "base64" })
      .send()
      .catch((error: unknown) => error);
    expect(
      isSolanaError((expired as Error).cause, SOLANA_ERROR__TRANSACTION_ERROR__BLOCKHASH_NOT_FOUND),
    ).toBe(true);
    expect(await balance(receiver.address)).toBe(5_000_000n);
  });

  it("simulates an unsigned transaction with a replaced blockhash, as fee estimators do", async () => {
    const receiver = await generateKeyPairSigner();
    const { value: lifetime } = await rpc.getLatestBlockhash().send();
    const signed = await signLocalTransaction({
      payer: buyer,
      instructions: [
        getTransferSolInstruction({ source: buyer, destination: receiver.address, amount: 7_000_000n }),
      ],
      lifetime,
    });
    const unsigned = new Uint8Array(signed.wire);
    unsigned.fill(0, 1, 65);
    advance(200);
    const { value } = await rpc
      .simulateTransaction(Buffer.from(unsigned).toString("base64") as Base64EncodedWireTransaction, {
        encoding: "base64",
        replaceRecentBlockhash: true,
        accounts: { addresses: [receiver.address], encoding: "base64" },
      })
      .send();
    expect(value.err).toBeNull();
    expect(value.unitsConsumed).toBeGreaterThan(0n);
    expect(value.accounts?.[0]?.lamports).toBe(7_000_000n);
    expect(value.replacementBlockhash?.blockhash).toBe(
      (await rpc.getLatestBlockhash().send()).value.blockhash,
    );
    expect(await balance(receiver.address)).toBe(0n);
  });

  it("airdrops SOL on request", async () => {
    const wallet = await generateKeyPairSigner();
    const signature = await rpc.requestAirdrop(wallet.address, 1_500_000_000n as never).send();
    expect(await balance(wallet.address)).toBe(1_500_000_000n);
    expect(await status(signature)).toMatchObject({ err: null });
  });
});
