import { createHash } from "node:crypto";
import { ed25519 } from "@noble/curves/ed25519.js";
import { base58 } from "@scure/base";
import { type Blockhash, isSolanaError, SOLANA_ERROR__JSON_RPC__INVALID_PARAMS } from "@solana/kit";
import type { NetworkConfig } from "../networks";
import type { X402CosignedTransaction, X402TransactionScheme } from "../x402-transaction-scheme";
import {
  type DecodedX402Transaction,
  decodeX402Transaction,
  x402TransactionProblem,
} from "./check-x402-transaction";
import { followTokenTransfer } from "./follow-token-transfer";
import { commitmentOf, type SolanaRpc } from "./read-solana-transfers";
import { solanaServiceKey } from "./solana-keys";

/** Block heights a blockhash stays valid for: an upper bound on what is left of a valid one's life. */
const blockhashLifetime = 150n;

const feePayerOf = (mnemonic: string) => solanaServiceKey(mnemonic, "feePayer");

/**
 * The transaction with our fee payer's signature in its first slot. Ed25519 signatures are
 * deterministic: every copy of one agent's transaction gets the same bytes and the same id, so
 * sending it again (a copy, a takeover after a crash) can land it at most once.
 */
async function cosignDecoded(
  rpc: SolanaRpc,
  decoded: DecodedX402Transaction,
  mnemonic: string,
  payer: string,
): Promise<X402CosignedTransaction> {
  const signature = ed25519.sign(decoded.messageBytes, feePayerOf(mnemonic).secretKey);
  const count = new Uint8Array([decoded.signatures.length]);
  const rest = decoded.signatures.slice(1).map((entry) => entry ?? new Uint8Array(64));
  const wire = Buffer.concat([count, signature, ...rest, decoded.messageBytes]);
  // Read before any status: once it is invalid, nothing later can land it (follow-token-transfer.ts).
  const [{ value: valid }, height, slot] = await Promise.all([
    rpc.isBlockhashValid(decoded.blockhash as Blockhash, { commitment: "processed" }).send(),
    rpc.getBlockHeight({ commitment: "processed" }).send(),
    rpc.getSlot({ commitment: "processed" }).send(),
  ]);
  return {
    payer,
    id: base58.encode(signature),
    signed: wire.toString("base64"),
    lastValidHeight: valid ? height + blockhashLifetime : 0n,
    slot,
  };
}

/**
 * Whether a node's JSON-RPC error is about the transaction itself (invalid params: it cannot read
 * it): the agent's to fix, a 402, where an outage is a 503 (the agent would send it again).
 */
const refusedByNode = (error: unknown) => isSolanaError(error, SOLANA_ERROR__JSON_RPC__INVALID_PARAMS);

/**
 * x402's `exact` scheme on Solana (the x402 SVM specification): the agent signs a TransferChecked
 * that our fee payer (solana-keys.ts, "feePayer") pays the fee of, co-signs and sends; the agent
 * needs no SOL. The memo binds the transaction to one quote.
 */
export function solanaX402Scheme(client: (network: NetworkConfig) => SolanaRpc): X402TransactionScheme {
  return {
    extra: (network, memo) => ({ feePayer: network.feePayer ?? "", memo }),
    // The message's hash: our co-signature (the transaction's id on chain) signs exactly it, so
    // one id is one transaction; signing to name it would sign bytes nobody has checked.
    identify(transaction) {
      const decoded = decodeX402Transaction(transaction);
      if (!decoded || decoded.keys.length < 2) return undefined;
      return {
        payer: decoded.keys[1],
        id: base58.encode(createHash("sha256").update(decoded.messageBytes).digest()),
      };
    },
    async check(network, mnemonic, transaction, terms) {
      const decoded = decodeX402Transaction(transaction);
      if (!decoded) return { refusal: "invalid_exact_svm_payload_transaction_could_not_be_decoded" };
      const problem = await x402TransactionProblem(decoded, feePayerOf(mnemonic).address, terms);
      if (problem) return { refusal: problem };
      const rpc = client(network);
      const cosigned = await cosignDecoded(rpc, decoded, mnemonic, decoded.keys[1]);
      if (cosigned.lastValidHeight === 0n) return { refusal: "invalid_exact_svm_payload_blockhash_expired" };
      // At `processed`, the newest state, where it would land: a balance a transaction already in
      // a block spends fails here rather than on chain at our fee payer's cost. The signatures are
      // checked above (the payer's) or are ours, and the blockhash must stay the agent's.
      const simulated = await rpc
        .simulateTransaction(cosigned.signed as never, {
          encoding: "base64",
          sigVerify: false,
          replaceRecentBlockhash: false,
          commitment: "processed",
        })
        .send()
        .catch((error: unknown) => {
          if (refusedByNode(error)) return { refusal: "invalid_exact_svm_transaction_simulation_failed" };
          throw error;
        });
      if ("refusal" in simulated) return simulated;
      if (simulated.value.err !== null) return { refusal: "invalid_exact_svm_transaction_simulation_failed" };
      return cosigned;
    },
    async follow(network, transaction) {
      const progress = await followTokenTransfer(
        client(network),
        {
          signature: transaction.id,
          wire: transaction.signed,
          lastValidBlockHeight: transaction.lastValidHeight,
          minContextSlot: transaction.slot,
        },
        commitmentOf(network),
      );
      return progress.state;
    },
  };
}
