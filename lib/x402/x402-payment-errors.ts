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

/**
 * The facilitator reasons passed on as our error codes: the x402 v2 specification's standard codes,
 * those of x402's EVM `exact` scheme for EIP-3009 (@x402/evm), and the built-in facilitator's own
 * (lib/x402/create-built-in-facilitator.ts). A fixed list: a facilitator over HTTP is not ours, and
 * what it answers must not become arbitrary codes or text in our API.
 */
const facilitatorCodes = new Set([
  // x402 v2, "Error Handling".
  "insufficient_funds",
  "invalid_exact_evm_payload_authorization_valid_after",
  "invalid_exact_evm_payload_authorization_valid_before",
  "invalid_exact_evm_payload_authorization_value_mismatch",
  "invalid_exact_evm_payload_signature",
  "invalid_exact_evm_payload_recipient_mismatch",
  "invalid_network",
  "invalid_payload",
  "invalid_payment_requirements",
  "invalid_scheme",
  "unsupported_scheme",
  "invalid_x402_version",
  "invalid_transaction_state",
  "unexpected_verify_error",
  "unexpected_settle_error",
  // @x402/evm's `exact` scheme, EIP-3009.
  "asset_not_deployed_contract",
  "eip6492_factory_not_allowed",
  "invalid_exact_evm_authorization_value",
  "invalid_exact_evm_eip3009_not_supported",
  "invalid_exact_evm_failed_to_parse_signature",
  "invalid_exact_evm_insufficient_balance",
  "invalid_exact_evm_missing_eip712_domain",
  "invalid_exact_evm_network_mismatch",
  "invalid_exact_evm_nonce_already_used",
  "invalid_exact_evm_recipient_mismatch",
  "invalid_exact_evm_scheme",
  "invalid_exact_evm_signature",
  "invalid_exact_evm_token_name_mismatch",
  "invalid_exact_evm_token_version_mismatch",
  "invalid_exact_evm_transaction_failed",
  "invalid_exact_evm_transaction_simulation_failed",
  "invalid_exact_evm_transfer_event_mismatch",
  "smart_wallet_deployment_failed",
  "unsupported_payload_type",
  // The built-in facilitator's.
  "payee_not_accepted",
  "payer_not_supported",
]);

/** x402's SVM `exact` codes (and ours in their words: lib/chains/solana/check-x402-transaction.ts). */
const svmCode = /^invalid_exact_svm_[a-z_]{1,100}$/;

/** A facilitator's reason as x402 clients get it: a code of the list above, else `fallback`. */
export function x402ErrorCode(reason: string | undefined, fallback: string): string {
  return reason && (facilitatorCodes.has(reason) || svmCode.test(reason)) ? reason : fallback;
}
