import {
  AccountRole,
  type Address,
  appendTransactionMessageInstruction,
  compileTransactionMessage,
  createTransactionMessage,
  getBase64Decoder,
  getCompiledTransactionMessageEncoder,
  pipe,
  setTransactionMessageFeePayer,
  setTransactionMessageLifetimeUsingBlockhash,
  type TransactionMessageBytesBase64,
} from "@solana/kit";
import { x402ComputeLimits } from "./check-x402-transaction";
import { memoV2ProgramAddress } from "./prepare-token-transfer";
import type { SolanaRpc } from "./read-solana-transfers";

/** Any two keys: a message's base fee depends on how many sign it, not on who. */
const feePayer = "11111111111111111111111111111112" as Address;
const payer = "11111111111111111111111111111113" as Address;

/**
 * The most one x402 settlement (x402's SVM `exact` scheme) can cost our fee payer, in lamports:
 * the base fee of a transaction signed twice (agent and fee payer), as the node quotes it
 * (getFeeForMessage), and the priority fee at the compute price and unit caps
 * lib/chains/solana/check-x402-transaction.ts lets an agent set: the worst an agent can make us
 * pay. The transfer's account already exists, so no rent. Throws when the node cannot answer.
 */
export async function estimateX402SettlementFee(rpc: SolanaRpc): Promise<bigint> {
  const { value: lifetime } = await rpc.getLatestBlockhash({ commitment: "confirmed" }).send();
  const message = pipe(
    createTransactionMessage({ version: 0 }),
    (draft) => setTransactionMessageFeePayer(feePayer, draft),
    (draft) => setTransactionMessageLifetimeUsingBlockhash(lifetime, draft),
    (draft) =>
      appendTransactionMessageInstruction(
        {
          programAddress: memoV2ProgramAddress,
          accounts: [{ address: payer, role: AccountRole.READONLY_SIGNER }],
          data: new Uint8Array(),
        },
        draft,
      ),
  );
  const bytes = getCompiledTransactionMessageEncoder().encode(compileTransactionMessage(message));
  const encoded = getBase64Decoder().decode(bytes) as TransactionMessageBytesBase64;
  const { value: baseFee } = await rpc.getFeeForMessage(encoded, { commitment: "confirmed" }).send();
  if (baseFee === null) throw new Error("the node quoted no fee (its blockhash expired meanwhile)");
  const microLamports = x402ComputeLimits.microLamports * BigInt(x402ComputeLimits.units);
  return BigInt(baseFee) + (microLamports + 999_999n) / 1_000_000n;
}
