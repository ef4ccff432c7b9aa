import {
  type Address,
  address,
  fetchEncodedAccount,
  type GetAccountInfoApi,
  type GetLatestBlockhashApi,
  getUtf8Encoder,
  type Instruction,
  type Rpc,
} from "@solana/kit";
import {
  getCreateAssociatedTokenIdempotentInstruction,
  getTransferCheckedInstruction,
} from "@solana-program/token";
import { checkSolanaDestination, type SolanaDestinationCheck } from "./check-solana-destination";
import {
  associatedTokenAccount,
  type PreparedSolanaTransaction,
  prepareSolanaTransaction,
  signersOf,
} from "./prepare-solana-transaction";
import type { SolanaKeyPair } from "./solana-keys";

/**
 * SPL Memo v2, named explicitly: @solana-program/memo's default is the older Memo program, which
 * the local chain refuses.
 */
export const memoV2ProgramAddress = address("MemoSq4gqABAXKb96qnH8TysNcWxMyWCqXgDLGmfcHr");

/** The most memo bytes a transfer carries: the whole transaction must fit in 1232 bytes. */
const maxMemoBytes = 256;

/**
 * Why a transfer was not prepared: the destination is not a wallet (check-solana-destination.ts),
 * the amount is not a token amount (1 to 2^64-1 units), or the memo is empty or too long. The
 * domain answers each as a 400 (lib/errors.ts, which lib/chains may not import).
 */
export type TransferRefusal =
  | Exclude<SolanaDestinationCheck, "ok">
  | "invalid_amount"
  | "invalid_memo"
  | "no_token_account";

/**
 * Builds and signs, without sending, a TransferChecked of `units` of `mint` from `source`'s
 * associated token account to `destination`'s (an owner wallet, checked by
 * check-solana-destination.ts), first creating the destination's token account if it has none
 * (CreateIdempotent, its rent paid by `feePayer`, who pays the fee too), with an optional memo.
 * With `existingAccountOnly`, a destination without its token account is refused instead: its
 * owner could close an account made for it and keep the rent, at the fee payer's cost, as often as
 * it can get a transfer made. Sends nothing and reads only the destination's accounts and the
 * latest blockhash.
 */
export async function prepareTokenTransfer(
  rpc: Rpc<GetAccountInfoApi & GetLatestBlockhashApi>,
  transfer: {
    source: SolanaKeyPair;
    feePayer: SolanaKeyPair;
    mint: Address;
    decimals: number;
    destination: string;
    units: bigint;
    memo?: string;
    existingAccountOnly?: boolean;
  },
): Promise<
  | { state: "prepared"; transaction: PreparedSolanaTransaction }
  | { state: "refused"; reason: TransferRefusal }
> {
  if (transfer.units <= 0n || transfer.units >= 2n ** 64n)
    return { state: "refused", reason: "invalid_amount" };
  const memo = transfer.memo === undefined ? undefined : getUtf8Encoder().encode(transfer.memo);
  if (memo && (memo.length === 0 || memo.length > maxMemoBytes))
    return { state: "refused", reason: "invalid_memo" };
  const check = await checkSolanaDestination(rpc, transfer.destination);
  if (check !== "ok") return { state: "refused", reason: check };
  const owner = transfer.destination as Address;
  const { source, feePayer } = await signersOf({ source: transfer.source, feePayer: transfer.feePayer });
  const destinationAccount = await associatedTokenAccount(owner, transfer.mint);
  if (
    transfer.existingAccountOnly &&
    !(await fetchEncodedAccount(rpc, destinationAccount, { commitment: "confirmed" })).exists
  )
    return { state: "refused", reason: "no_token_account" };
  const instructions: Instruction[] = [
    getCreateAssociatedTokenIdempotentInstruction({
      payer: feePayer,
      ata: destinationAccount,
      owner,
      mint: transfer.mint,
    }),
    getTransferCheckedInstruction({
      source: await associatedTokenAccount(source.address, transfer.mint),
      mint: transfer.mint,
      destination: destinationAccount,
      authority: source,
      amount: transfer.units,
      decimals: transfer.decimals,
    }),
  ];
  if (memo) instructions.push({ programAddress: memoV2ProgramAddress, data: new Uint8Array(memo) });
  return { state: "prepared", transaction: await prepareSolanaTransaction(rpc, feePayer, instructions) };
}
