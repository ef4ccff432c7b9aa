import type { Address, GetLatestBlockhashApi, Instruction, KeyPairSigner, Rpc } from "@solana/kit";
import { findAssociatedTokenPda, TOKEN_PROGRAM_ADDRESS } from "@solana-program/token";
import { localSigner, signLocalTransaction } from "./sign-local-transaction";
import type { SolanaKeyPair } from "./solana-keys";

/**
 * A signed transaction not yet known to be on chain. The caller stores it before sending: after a
 * crash, lib/chains/solana/follow-token-transfer.ts resends these very bytes, which can land at
 * most once (the chain refuses a signature it has seen), until the chain's block height passes
 * `lastValidBlockHeight`, after which they can never land.
 */
export type PreparedSolanaTransaction = {
  /** The fee payer's signature: the transaction's id. */
  signature: string;
  /** The signed transaction, base64, as sendTransaction takes it. */
  wire: string;
  lastValidBlockHeight: bigint;
  /** The slot it was signed at, when known: a node behind it cannot say where the transaction stands. */
  minContextSlot?: bigint;
};

/** The owner's associated token account for `mint` (classic Token program: Solana's USDC is one). */
export async function associatedTokenAccount(owner: Address, mint: Address): Promise<Address> {
  const [tokenAccount] = await findAssociatedTokenPda({ owner, mint, tokenProgram: TOKEN_PROGRAM_ADDRESS });
  return tokenAccount;
}

/**
 * Kit signers for the keys, one per address: kit refuses two signer instances of one address in a
 * transaction, and the fee payer may also be the source.
 */
export async function signersOf<Role extends string>(
  keys: Record<Role, SolanaKeyPair>,
): Promise<Record<Role, KeyPairSigner>> {
  const byAddress = new Map<string, Promise<KeyPairSigner>>();
  const entries = Object.entries(keys) as [Role, SolanaKeyPair][];
  const signers = await Promise.all(
    entries.map(([, key]) => {
      const existing = byAddress.get(key.address);
      if (existing) return existing;
      const created = localSigner(key);
      byAddress.set(key.address, created);
      return created;
    }),
  );
  return Object.fromEntries(entries.map(([role], index) => [role, signers[index]])) as Record<
    Role,
    KeyPairSigner
  >;
}

/** Signs `instructions` paid by `feePayer` at the chain's latest blockhash. */
export async function prepareSolanaTransaction(
  rpc: Rpc<GetLatestBlockhashApi>,
  feePayer: KeyPairSigner,
  instructions: Instruction[],
): Promise<PreparedSolanaTransaction> {
  // Confirmed, not finalized: a finalized blockhash is already about 32 blocks into its 150.
  const { value: lifetime } = await rpc.getLatestBlockhash({ commitment: "confirmed" }).send();
  const signed = await signLocalTransaction({ payer: feePayer, instructions, lifetime });
  return {
    signature: signed.signature,
    wire: signed.base64,
    lastValidBlockHeight: lifetime.lastValidBlockHeight,
  };
}
