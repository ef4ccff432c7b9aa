import { BaseError, encodeFunctionData, erc20Abi, type Hex, InsufficientFundsError } from "viem";
import { type Payable, remainingUnits } from "./payment-uri";

// Browser-safe: the hosted page's wallet code loads this on a click (viem's errors and ABI encoding).

/** The exact transaction that pays the rest: an ERC-20 `transfer`, or a plain native value transfer. */
export function transferRequest(payment: Payable): { to: Hex; value?: bigint; data?: Hex } {
  const units = remainingUnits(payment);
  return payment.tokenAddress
    ? {
        to: payment.tokenAddress as Hex,
        data: encodeFunctionData({
          abi: erc20Abi,
          functionName: "transfer",
          args: [payment.depositAddress as Hex, units],
        }),
      }
    : { to: payment.depositAddress as Hex, value: units };
}

export type WalletProblem = "rejected" | "wrongChain" | "insufficient" | "gone" | "failed";

/** Thrown by the page's wallet steps for a problem it already knows (e.g. a balance check). */
export class WalletStepError extends Error {
  constructor(readonly problem: WalletProblem) {
    super(problem);
  }
}

function codeOf(error: unknown): number | undefined {
  const find = (value: unknown) =>
    typeof value === "object" && value !== null && typeof (value as { code?: unknown }).code === "number"
      ? (value as { code: number }).code
      : undefined;
  if (error instanceof BaseError) return find(error.walk((inner) => find(inner) !== undefined));
  return find(error);
}

/**
 * What to tell the buyer about a failed wallet request: EIP-1193 codes (4001 rejected, 4900/4901
 * disconnected, 4902 unknown chain) and the node's "insufficient funds", whether raw or wrapped
 * by viem.
 */
export function classifyWalletError(error: unknown): WalletProblem {
  if (error instanceof WalletStepError) return error.problem;
  const code = codeOf(error);
  if (code === 4001) return "rejected";
  if (code === 4900 || code === 4901) return "gone";
  if (code === 4902) return "wrongChain";
  if (error instanceof BaseError && error.walk((inner) => inner instanceof InsufficientFundsError))
    return "insufficient";
  const message = error instanceof BaseError ? `${error.shortMessage} ${error.details}` : String(error);
  if (/insufficient funds|exceeds balance|insufficient balance/i.test(message)) return "insufficient";
  return "failed";
}
