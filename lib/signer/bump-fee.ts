import { type Address, type Hex, parseTransaction } from "viem";
import type { SignedTransaction } from "../generated/prisma/client";
import type { UnsignedTransaction } from "./sign-transaction";

/** A replacement pays this much more per gas (nodes require at least 10%). */
const feeBumpPercent = 125n;
/** A transaction's fee is never bumped past this multiple of its first fee. */
export const feeCapMultiple = 4n;

type Fees = { maxFeePerGas: bigint; maxPriorityFeePerGas: bigint };

/** The fees a replacement of a transaction that paid `previous` offers: both a quarter higher. */
export function bumpedFees(previous: Partial<Fees>): Fees {
  return {
    maxFeePerGas: ((previous.maxFeePerGas ?? 0n) * feeBumpPercent) / 100n,
    // Nodes want both fees raised; a zero tip is raised by one wei.
    maxPriorityFeePerGas: ((previous.maxPriorityFeePerGas ?? 0n) * feeBumpPercent) / 100n + 1n,
  };
}

export type FeeBump = {
  /** The stuck transaction again, with fees a quarter higher (the tip is raised even from zero). */
  unsigned: UnsignedTransaction;
  /** The stuck transaction's maxFeePerGas. */
  previousMaxFeePerGas: bigint;
  /** The highest maxFeePerGas allowed: feeCapMultiple times the first transaction's. */
  cap: bigint;
};

/** The replacement of `current` (same nonce, signed by the caller), within the cap set by `first`. */
export function bumpFee(first: SignedTransaction, current: SignedTransaction, fallbackGas: bigint): FeeBump {
  const parsed = parseTransaction(current.raw as Hex);
  return {
    unsigned: {
      to: parsed.to as Address,
      value: parsed.value ?? 0n,
      data: parsed.data,
      gas: parsed.gas ?? fallbackGas,
      ...bumpedFees(parsed),
    },
    previousMaxFeePerGas: parsed.maxFeePerGas ?? 0n,
    cap: BigInt(first.maxFeePerGas.toFixed()) * feeCapMultiple,
  };
}

/** Whether a replacement's fee is a real bump that stays within the cap. */
export function withinFeeCap(bump: FeeBump, maxFeePerGas: bigint) {
  return maxFeePerGas <= bump.cap && maxFeePerGas > bump.previousMaxFeePerGas;
}
