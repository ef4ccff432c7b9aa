import type { Address, MaybeAccount, ReadonlyUint8Array } from "@solana/kit";
import { getMintDecoder, getTokenDecoder, TOKEN_PROGRAM_ADDRESS } from "@solana-program/token";

/** The Token-2022 program: its accounts start with the classic token layout, extensions after. */
export const token2022ProgramAddress = "TokenzQdBNbLqP5VEhdkAS6EPFLC1PHnBqCXEpPxuEb" as Address;

const tokenPrograms: readonly string[] = [TOKEN_PROGRAM_ADDRESS, token2022ProgramAddress];

/** Sizes of the classic layouts (Token-2022 appends an account-type byte and extensions). */
const tokenAccountSize = 165;
const mintSize = 82;
/** Token-2022's account-type byte after the classic layout: 1 a mint, 2 a token account. */
const token2022AccountType = { mint: 1, account: 2 };

/** An account as the chain holds it, or its absence (LiteSVM gives both mutable and read-only data). */
export type ChainAccount = MaybeAccount<ReadonlyUint8Array>;

/** A token amount as the RPC writes it ("uiTokenAmount"). */
export type UiTokenAmount = { amount: string; decimals: number; uiAmount: number; uiAmountString: string };

/** `units` of a token with `decimals` as the RPC shows them: 1500000 at 6 decimals is "1.5". */
export function uiTokenAmount(units: bigint, decimals: number): UiTokenAmount {
  const digits = units.toString().padStart(decimals + 1, "0");
  const whole = digits.slice(0, digits.length - decimals);
  const fraction = digits.slice(digits.length - decimals).replace(/0+$/, "");
  const uiAmountString = fraction ? `${whole}.${fraction}` : whole;
  return { amount: units.toString(), decimals, uiAmount: Number(uiAmountString), uiAmountString };
}

function isTokenLayout(data: ReadonlyUint8Array, size: number, accountType: number) {
  return data.length === size || (data.length > tokenAccountSize && data[tokenAccountSize] === accountType);
}

/** A token account's fields, when `account` is one (of the Token or Token-2022 program). */
export function readTokenAccount(account: ChainAccount) {
  if (!account.exists || !tokenPrograms.includes(account.programAddress)) return null;
  if (!isTokenLayout(account.data, tokenAccountSize, token2022AccountType.account)) return null;
  const token = getTokenDecoder().decode(account.data.slice(0, tokenAccountSize));
  return { ...token, programId: account.programAddress };
}

/** A mint's fields, when `account` is one. */
export function readMint(account: ChainAccount) {
  if (!account.exists || !tokenPrograms.includes(account.programAddress)) return null;
  if (!isTokenLayout(account.data, mintSize, token2022AccountType.mint)) return null;
  return getMintDecoder().decode(account.data.slice(0, mintSize));
}
