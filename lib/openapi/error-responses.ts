import { errorEnvelope } from "./common-schemas";

const descriptions = {
  400: "Invalid request: `error.param` names the field or header",
  401: "Missing or invalid API key",
  403: "The credential is valid but may not do this (e.g. read-only access)",
  404: "Unknown id (or one that belongs to another organization)",
  409: "Idempotency-Key reused with a different body",
  410: "A one-time token or flow that was used up or expired",
  413: "Body over 64 KiB",
  415: "Body is not JSON",
  429: "Rate limited: retry after `Retry-After` seconds",
  503: "Not ready",
} as const;

/** The error answers an operation can give, all in the one envelope. */
export function errorResponses(...statuses: (keyof typeof descriptions)[]) {
  return Object.fromEntries(
    statuses.map((status) => [status, { description: descriptions[status], schema: errorEnvelope }]),
  );
}
