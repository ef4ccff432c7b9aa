import {
  type Address,
  type Base64EncodedWireTransaction,
  fetchEncodedAccount,
  type GetAccountInfoApi,
  type GetLatestBlockhashApi,
  type Rpc,
  type SendTransactionApi,
} from "@solana/kit";
import { getCreateAssociatedTokenIdempotentInstruction } from "@solana-program/token";
import { associatedTokenAccount, prepareSolanaTransaction, signersOf } from "./prepare-solana-transaction";
import type { SolanaKeyPair } from "./solana-keys";

/**
 * Makes sure `owner` has its associated token account for `mint` (the service's receiving wallet
 * before any buyer pays into it): "exists" when it does, else sends a CreateIdempotent paid by
 * `feePayer` and answers "sent" with its signature. Call it again until it answers "exists":
 * creating twice is harmless (the second is a no-op costing only its fee), so there is nothing to
 * store between calls.
 */
export async function ensureTokenAccount(
  rpc: Rpc<GetAccountInfoApi & GetLatestBlockhashApi & SendTransactionApi>,
  options: { owner: Address; mint: Address; feePayer: SolanaKeyPair },
): Promise<{ tokenAccount: Address } & ({ state: "exists" } | { state: "sent"; signature: string })> {
  const tokenAccount = await associatedTokenAccount(options.owner, options.mint);
  // Only the associated token account program can create an account at this address, as a token
  // account of this owner and mint: that it exists is enough.
  const account = await fetchEncodedAccount(rpc, tokenAccount, { commitment: "confirmed" });
  if (account.exists) return { tokenAccount, state: "exists" };
  const { feePayer } = await signersOf({ feePayer: options.feePayer });
  const prepared = await prepareSolanaTransaction(rpc, feePayer, [
    getCreateAssociatedTokenIdempotentInstruction({
      payer: feePayer,
      ata: tokenAccount,
      owner: options.owner,
      mint: options.mint,
    }),
  ]);
  await rpc
    .sendTransaction(prepared.wire as Base64EncodedWireTransaction, {
      encoding: "base64",
      preflightCommitment: "confirmed",
    })
    .send();
  return { tokenAccount, state: "sent", signature: prepared.signature };
}
