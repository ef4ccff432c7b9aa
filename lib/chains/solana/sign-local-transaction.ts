import {
  appendTransactionMessageInstructions,
  type Blockhash,
  createKeyPairSignerFromPrivateKeyBytes,
  createTransactionMessage,
  getBase64EncodedWireTransaction,
  getSignatureFromTransaction,
  getTransactionEncoder,
  type Instruction,
  type KeyPairSigner,
  pipe,
  setTransactionMessageComputeUnitLimit,
  setTransactionMessageComputeUnitPrice,
  setTransactionMessageFeePayerSigner,
  setTransactionMessageLifetimeUsingBlockhash,
  signTransactionMessageWithSigners,
} from "@solana/kit";
import type { SolanaKeyPair } from "./solana-keys";

/** A kit signer for one of our ed25519 key pairs (lib/chains/solana/solana-keys.ts). */
export function localSigner(key: SolanaKeyPair): Promise<KeyPairSigner> {
  return createKeyPairSignerFromPrivateKeyBytes(key.secretKey);
}

/** A signed transaction, as the chain takes it (wire bytes), as RPC's sendTransaction takes it (base64), and its id. */
export type SignedLocalTransaction = { wire: Uint8Array; base64: string; signature: string };

/**
 * Builds and signs a transaction that `payer` pays the fee of: the payer and every signer the
 * instructions carry (a new account's key, a transfer's authority) sign it. Used by the local chain
 * to fund accounts, by tests and devnet tools that pay from a known key, and by the service's own
 * transfers (prepare-solana-transaction.ts).
 */
export async function signLocalTransaction(options: {
  payer: KeyPairSigner;
  instructions: Instruction[];
  lifetime: { blockhash: string; lastValidBlockHeight: bigint };
  version?: "legacy" | 0;
  /** A compute-unit limit and price (micro-lamports a unit): a priority fee. */
  computeUnits?: { limit: number; microLamports: bigint };
}): Promise<SignedLocalTransaction> {
  const units = options.computeUnits;
  const message = pipe(
    createTransactionMessage({ version: options.version ?? "legacy" }),
    (draft) => setTransactionMessageFeePayerSigner(options.payer, draft),
    (draft) =>
      setTransactionMessageLifetimeUsingBlockhash(
        {
          blockhash: options.lifetime.blockhash as Blockhash,
          lastValidBlockHeight: options.lifetime.lastValidBlockHeight,
        },
        draft,
      ),
    (draft) => appendTransactionMessageInstructions(options.instructions, draft),
    (draft) => (units ? setTransactionMessageComputeUnitLimit(units.limit, draft) : draft),
    (draft) => (units ? setTransactionMessageComputeUnitPrice(units.microLamports, draft) : draft),
  );
  const transaction = await signTransactionMessageWithSigners(message);
  return {
    wire: new Uint8Array(getTransactionEncoder().encode(transaction)),
    base64: getBase64EncodedWireTransaction(transaction),
    signature: getSignatureFromTransaction(transaction),
  };
}
