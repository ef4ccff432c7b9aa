import { base58 } from "@scure/base";
import { TOKEN_PROGRAM_ADDRESS } from "@solana-program/token";
import { describe, expect, it } from "vitest";
import { tokenTransfersInto } from "./read-solana-transfers";

const payer = "AqynRZwvVqUPRwRJXvm6odUb3t93fDjnWe3p6BeuUFxD";
const source = "3xatUxNe97h7wszU2PWUxTN9DySMpiNs2EdvZ6UxHTkp";
const account = "4gCPWF8bBHkuqd4w45pStd9BQ6SvBAoe6aUG5viDrLBb";
const mint = "8mcrCSrqAAjCsuwEBekPb24kxqVzpLtpzws82EzakSdb";
const reference = "CqMbRgMuEhQi9BUS8xP44Wk5nENm48FqJnfjEi4eNb1k";
const otherMint = "EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v";
const memo = "MemoSq4gqABAXKb96qnH8TysNcWxMyWCqXgDLGmfcHr";

const keys = [payer, source, account, mint, reference, TOKEN_PROGRAM_ADDRESS, otherMint, memo];
const at = (key: string) => keys.indexOf(key);

/** A token instruction's data: its number, the amount (u64 LE) and, for TransferChecked, the decimals. */
function data(instruction: number, units: bigint, decimals?: number) {
  const bytes = new Uint8Array(decimals === undefined ? 9 : 10);
  bytes[0] = instruction;
  new DataView(bytes.buffer).setBigUint64(1, units, true);
  if (decimals !== undefined) bytes[9] = decimals;
  return base58.encode(bytes);
}
const checked = (accounts: string[], units = 5_000_000n) => ({
  programIdIndex: at(TOKEN_PROGRAM_ADDRESS),
  accounts: accounts.map(at),
  data: data(12, units, 6),
});
const plain = (accounts: string[], units = 5_000_000n) => ({
  programIdIndex: at(TOKEN_PROGRAM_ADDRESS),
  accounts: accounts.map(at),
  data: data(3, units),
});

type Instruction = { programIdIndex: number; accounts: number[]; data: string };
const transaction = (
  instructions: Instruction[],
  meta: { err?: unknown; accountKeys?: string[]; loaded?: { writable: string[]; readonly: string[] } } = {},
) => ({
  slot: 7n,
  meta: { err: meta.err ?? null, ...(meta.loaded ? { loadedAddresses: meta.loaded } : {}) },
  transaction: { message: { accountKeys: meta.accountKeys ?? keys, instructions } },
});

describe("tokenTransfersInto", () => {
  it("records the source account's owner as the payer, not a delegate that signed", () => {
    const delegate = otherMint;
    const raw = {
      ...transaction([checked([source, mint, account, delegate, reference])]),
    };
    raw.meta = {
      ...raw.meta,
      preTokenBalances: [{ accountIndex: at(source), owner: payer }],
    } as typeof raw.meta;
    expect(tokenTransfersInto(raw, account, mint)).toEqual([
      { index: 0, units: 5_000_000n, payer, extraKeys: [reference], memos: [] },
    ]);
  });

  it("hands over the transaction's memos, which carry an x402 payment's reference", () => {
    const text = {
      programIdIndex: at(memo),
      accounts: [],
      data: base58.encode(new TextEncoder().encode(reference)),
    };
    const raw = transaction([checked([source, mint, account, payer]), text]);
    expect(tokenTransfersInto(raw, account, mint)).toEqual([
      { index: 0, units: 5_000_000n, payer, extraKeys: [], memos: [reference] },
    ]);
  });

  it.each<[string, ReturnType<typeof transaction>, { units: bigint; extraKeys: string[] }[]]>([
    [
      "a Solana Pay TransferChecked with its reference",
      transaction([checked([source, mint, account, payer, reference])]),
      [{ units: 5_000_000n, extraKeys: [reference] }],
    ],
    [
      "a plain Transfer into the account (its mint is the account's)",
      transaction([plain([source, account, payer, reference])]),
      [{ units: 5_000_000n, extraKeys: [reference] }],
    ],
    ["another mint", transaction([checked([source, otherMint, account, payer, reference])]), []],
    ["into another account", transaction([checked([account, mint, source, payer, reference])]), []],
    [
      "a failed transaction",
      transaction([checked([source, mint, account, payer, reference])], {
        err: { InstructionError: [0, "Custom"] },
      }),
      [],
    ],
    [
      "another program's instruction",
      transaction([{ programIdIndex: at(memo), accounts: [at(reference)], data: "3yZe7d" }]),
      [],
    ],
    [
      "a v0 transaction whose reference comes from a lookup table",
      transaction([{ programIdIndex: 5, accounts: [1, 3, 2, 0, 8], data: data(12, 1n, 6) }], {
        loaded: { writable: [], readonly: [reference] },
      }),
      [{ units: 1n, extraKeys: [reference] }],
    ],
    ["a transfer of nothing", transaction([checked([source, mint, account, payer, reference], 0n)]), []],
    [
      "data of the wrong length",
      transaction([{ ...checked([source, mint, account, payer]), data: data(12, 1n) }]),
      [],
    ],
  ])("%s", (_case, raw, expected) => {
    const found = tokenTransfersInto(raw, account, mint).map(({ units, extraKeys, payer: paidBy }) => {
      expect(paidBy).toBe(payer);
      return { units, extraKeys };
    });
    expect(found).toEqual(expected);
  });
});
