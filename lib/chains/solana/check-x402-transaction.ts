import { ed25519 } from "@noble/curves/ed25519.js";
import { base58 } from "@scure/base";
import { getBase64Encoder, getCompiledTransactionMessageDecoder, getTransactionDecoder } from "@solana/kit";
import { TOKEN_PROGRAM_ADDRESS } from "@solana-program/token";
import type { X402TransactionTerms } from "../x402-transaction-scheme";
import { associatedTokenAccount } from "./prepare-solana-transaction";
import { memoV2ProgramAddress } from "./prepare-token-transfer";

const computeBudgetProgram = "ComputeBudget111111111111111111111111111111";
/** The most compute units and the highest price (micro-lamports a unit) our fee payer pays for. */
export const x402ComputeLimits = { units: 100_000, microLamports: 5_000_000n } as const;
/**
 * What the runtime grants an instruction (other than the compute budget's own) when no limit is
 * set: the priority fee is the price times this, so the cap must hold for it too.
 */
const defaultUnitsPerInstruction = 200_000n;

/** An agent's transaction, decoded: the message as signed, its signatures in key order, its keys. */
export type DecodedX402Transaction = {
  messageBytes: Uint8Array;
  signatures: (Uint8Array | null)[];
  keys: string[];
  blockhash: string;
  numSigners: number;
  instructions: readonly CompiledInstruction[];
};

/** The most bytes a transaction may have: one network packet's payload (nodes refuse larger ones). */
const maxTransactionBytes = 1232;

/** The base64 transaction decoded, or undefined when it is not one a node would take. */
export function decodeX402Transaction(transaction: string): DecodedX402Transaction | undefined {
  try {
    const bytes = getBase64Encoder().encode(transaction);
    if (bytes.length > maxTransactionBytes) return undefined;
    const decoded = getTransactionDecoder().decode(bytes);
    const message = getCompiledTransactionMessageDecoder().decode(decoded.messageBytes);
    if (message.version !== 0 && message.version !== "legacy") return undefined;
    // Keys loaded from lookup tables could name anything, our fee payer too: only static keys.
    if ("addressTableLookups" in message && (message.addressTableLookups?.length ?? 0) > 0) return undefined;
    return {
      messageBytes: new Uint8Array(decoded.messageBytes),
      signatures: Object.values(decoded.signatures).map((signature) =>
        signature ? new Uint8Array(signature) : null,
      ),
      keys: message.staticAccounts.map(String),
      blockhash: String(message.lifetimeToken),
      numSigners: message.header.numSignerAccounts,
      instructions: message.instructions.map((instruction) => ({
        programAddressIndex: instruction.programAddressIndex,
        accountIndices: instruction.accountIndices ?? [],
        data: new Uint8Array(instruction.data ?? []),
      })),
    };
  } catch {
    return undefined;
  }
}

type CompiledInstruction = {
  programAddressIndex: number;
  accountIndices: readonly number[];
  data: Uint8Array;
};

const isZeroSignature = (signature: Uint8Array | null) => !signature || signature.every((byte) => byte === 0);

/**
 * Why the agent's transaction is not the payment the terms ask, as x402's SVM codes, or undefined
 * when it is: our fee payer signs as fee payer only (first key, named by no instruction, its
 * signature still empty); the payer's signature is valid; the instructions are at most one
 * compute-unit limit and one price (within `x402ComputeLimits`), exactly one TransferChecked of
 * the token program moving exactly the amount of the asset into payTo's associated token account,
 * and the memo the terms ask, once; nothing else.
 */
export async function x402TransactionProblem(
  decoded: DecodedX402Transaction,
  feePayer: string,
  terms: X402TransactionTerms,
): Promise<string | undefined> {
  const { keys, numSigners, signatures, messageBytes, instructions } = decoded;
  if (keys[0] !== feePayer) return "invalid_exact_svm_fee_payer_mismatch";
  if (numSigners !== 2 || signatures.length !== 2) return "invalid_exact_svm_payload_excessive_signers";
  if (!isZeroSignature(signatures[0])) return "invalid_exact_svm_payload_signature_invalid";
  const payerSignature = signatures[1];
  const payerKey = base58.decode(keys[1]);
  if (!payerSignature || !ed25519.verify(payerSignature, messageBytes, payerKey))
    return "invalid_exact_svm_payload_signature_invalid";
  const destination = await associatedTokenAccount(terms.payTo as never, terms.asset as never);
  let transfers = 0;
  let memos = 0;
  const budget = new Set<number>();
  let unitLimit: bigint | undefined;
  let unitPrice = 0n;
  for (const instruction of instructions) {
    const program = keys[instruction.programAddressIndex];
    const accounts = instruction.accountIndices.map((index) => keys[index]);
    const { data } = instruction;
    if (program === feePayer || accounts.includes(feePayer))
      return "invalid_exact_svm_payload_transaction_fee_payer_transferring_funds";
    const view = new DataView(data.buffer, data.byteOffset, data.byteLength);
    if (program === computeBudgetProgram) {
      const kind = data[0];
      if (budget.has(kind)) return "invalid_exact_svm_payload_transaction_instructions_length";
      budget.add(kind);
      if (kind === 2 && data.length === 5) {
        unitLimit = BigInt(view.getUint32(1, true));
        if (unitLimit > x402ComputeLimits.units)
          return "invalid_exact_svm_payload_transaction_instructions_compute_limit_instruction_too_high";
      } else if (kind === 3 && data.length === 9) {
        unitPrice = view.getBigUint64(1, true);
        if (unitPrice > x402ComputeLimits.microLamports)
          return "invalid_exact_svm_payload_transaction_instructions_compute_price_instruction_too_high";
      } else return "invalid_exact_svm_payload_unknown_optional_instruction";
    } else if (program === TOKEN_PROGRAM_ADDRESS && data[0] === 12 && data.length === 10) {
      transfers += 1;
      if (transfers > 1) return "invalid_exact_svm_payload_transaction_instructions_length";
      const [, mint, to, authority] = accounts;
      if (accounts.length !== 4) return "invalid_exact_svm_payload_unknown_optional_instruction";
      if (mint !== terms.asset) return "invalid_exact_svm_payload_mint_mismatch";
      if (to !== destination) return "invalid_exact_svm_payload_recipient_mismatch";
      if (view.getBigUint64(1, true) !== terms.units || data[9] !== terms.decimals)
        return "invalid_exact_svm_payload_amount_mismatch";
      if (authority !== keys[1]) return "invalid_exact_svm_payload_signature_invalid";
    } else if (program === memoV2ProgramAddress && accounts.length === 0) {
      memos += 1;
      if (memos > 1) return "invalid_exact_svm_payload_memo_count";
      if (new TextDecoder().decode(data) !== terms.memo) return "invalid_exact_svm_payload_memo_mismatch";
    } else return "invalid_exact_svm_payload_unknown_optional_instruction";
  }
  // The priority fee our fee payer pays is the price times the limit, the runtime's default when
  // none is set: bounded as if both were at their caps.
  const units = unitLimit ?? defaultUnitsPerInstruction * BigInt(instructions.length - budget.size);
  if (unitPrice * units > x402ComputeLimits.microLamports * BigInt(x402ComputeLimits.units))
    return "invalid_exact_svm_payload_transaction_instructions_compute_price_instruction_too_high";
  if (transfers === 0) return "invalid_exact_svm_payload_no_transfer_instruction";
  if (memos === 0) return "invalid_exact_svm_payload_memo_mismatch";
  return undefined;
}
