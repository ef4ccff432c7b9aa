import { errorEnvelope } from "crypto-checkout-agent/shapes";

// What each error status means across the API, with a typical answer as its example.
const errors = {
  400: {
    description: "Invalid request: `error.param` names the field or header",
    code: "parameter_invalid",
    message: "Invalid amount: must be greater than zero",
    param: "amount",
  },
  401: {
    description: "Missing or invalid API key",
    code: "missing_api_key",
    message: "No API key provided.",
  },
  403: {
    description: "The credential is valid but may not do this (e.g. read-only access)",
    code: "insufficient_access",
    message: "This credential has read-only access.",
  },
  404: {
    description: "Unknown id (or one that belongs to another organization)",
    code: "resource_missing",
    message: "No such checkout session.",
    param: "id",
  },
  409: {
    description: "Idempotency-Key reused with a different body, or a state that does not allow this",
    code: "idempotency_key_reused",
    message: "This Idempotency-Key was used with a different request body.",
  },
  410: {
    description: "A one-time token or flow that was used up or expired",
    code: "setup_expired",
    message: "This setup has expired. Start it again from the agent.",
  },
  413: {
    description: "Body over 64 KiB",
    code: "body_too_large",
    message: "Request bodies are limited to 64 KiB.",
  },
  415: {
    description: "Body is not JSON",
    code: "unsupported_media_type",
    message: "Send the body as JSON with `Content-Type: application/json`.",
  },
  429: {
    description: "Rate limited: retry after `Retry-After` seconds",
    code: "rate_limited",
    message: "Too many requests.",
  },
  503: {
    description:
      "Not available now: the database is unreachable (retry after `Retry-After` seconds), or (x402) not configured on this service or a price that cannot be converted",
    code: "service_unavailable",
    message: "The service is briefly unavailable. Try again shortly.",
  },
} as const;

const types = {
  400: "invalid_request_error",
  401: "authentication_error",
  403: "permission_error",
  404: "not_found_error",
  409: "idempotency_error",
  410: "invalid_request_error",
  413: "invalid_request_error",
  415: "invalid_request_error",
  429: "rate_limit_error",
  503: "api_error",
} as const;

export type ErrorStatus = keyof typeof errors;

/** A typical error envelope for `status` (or the one with this code), as the API answers it. */
export function errorExample(
  status: ErrorStatus,
  specific?: { code: string; message: string; param?: string },
) {
  const { description: _description, ...typical } = errors[status];
  return {
    error: { type: types[status], ...(specific ?? typical) },
    requestId: "req_8fK2mQ7xL0pV3nB6cR9t",
  };
}

/** The error answers an operation can give, all in the one envelope. */
export function errorResponses(...statuses: ErrorStatus[]) {
  return Object.fromEntries(
    statuses.map((status) => [
      status,
      { description: errors[status].description, schema: errorEnvelope, example: errorExample(status) },
    ]),
  );
}
