import { ServiceError } from "../errors";

/** A payment we do not take: the agent gets 402 again, with the reason and a fresh quote. */
export const paymentRefused = (code: string, message: string) =>
  new ServiceError(402, "invalid_request_error", code, message);

/** Seconds an agent waits before sending a pending payment again (about a block or two). */
const pendingRetrySeconds = 5;

/**
 * A payment whose transfer may still land: not a refusal (402 would tell the agent to pay again,
 * and both payments could land), but 503 with Retry-After; the same authorization sent again
 * answers the outcome.
 */
export const settlementPending = () =>
  new ServiceError(
    503,
    "api_error",
    "settlement_pending",
    "This payment is still being settled; send the same payment again shortly, and do not sign a new one.",
    undefined,
    { "Retry-After": String(pendingRetrySeconds) },
  );

/** Another authorization of one checkout may still land: this one waits (503), it is not refused. */
export const paymentInProgress = () =>
  new ServiceError(
    503,
    "api_error",
    "payment_in_progress",
    "Another payment of this checkout is still being settled; send this one again shortly, and do not sign a new one.",
    undefined,
    { "Retry-After": String(pendingRetrySeconds) },
  );

/** An error code as x402 clients get it: ours or x402's short snake_case, never a library's text. */
export function x402ErrorCode(reason: string | undefined, fallback: string): string {
  return reason && /^[a-z][a-z0-9_]{0,79}$/.test(reason) ? reason : fallback;
}
