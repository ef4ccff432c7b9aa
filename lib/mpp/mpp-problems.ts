import type { ServiceError } from "../errors";
import { paymentRefused } from "../x402/x402-payment-errors";

// The 402 of an x402 URL is also an RFC 9457 problem document with the problem types of the
// "Payment" HTTP authentication scheme (the types mppx's servers answer with), so MPP clients read
// why a credential was refused; x402 clients read the same body's `error` and the headers.

const problemBase = "https://paymentauth.org/problems/";

const problems = {
  "payment-required": "Payment Required",
  "malformed-credential": "Malformed Credential",
  "invalid-challenge": "Invalid Challenge",
  "payment-expired": "Payment Expired",
  "verification-failed": "Verification Failed",
} as const;
type Problem = keyof typeof problems;

/** Our codes that are not `verification-failed`: the credential unreadable, the challenge not ours, or expired. */
const problemOfCode: Record<string, Problem> = {
  malformed_credential: "malformed-credential",
  invalid_challenge: "invalid-challenge",
  challenge_for_another_resource: "invalid-challenge",
  challenge_expired: "payment-expired",
  authorization_expired: "payment-expired",
  quote_expired: "payment-expired",
};

export type PaymentProblem = {
  type: string;
  title: string;
  status: 402;
  detail: string;
  challengeId?: string;
};

/**
 * The problem fields of a 402: `payment-required` when nothing was sent, else the refusal's type
 * (`verification-failed` unless its code says otherwise) with our message as the detail, never a
 * library's text. `challengeId`: the first fresh challenge, as mppx names it.
 */
export function paymentProblem(
  error: ServiceError | null,
  description: string,
  challengeId: string | undefined,
): PaymentProblem {
  const problem: Problem = error ? (problemOfCode[error.code] ?? "verification-failed") : "payment-required";
  return {
    type: `${problemBase}${problem}`,
    title: problems[problem],
    status: 402,
    detail: error ? error.message : `Payment is required (${description}).`,
    ...(challengeId ? { challengeId } : {}),
  };
}

/** A credential we could not read (not base64url JSON of a challenge and a payload). */
export const malformedCredential = (what: string) =>
  paymentRefused("malformed_credential", `The Payment credential is malformed: ${what}.`);

/** A challenge this service did not issue for this resource, or altered since. */
export const invalidChallenge = (
  code = "invalid_challenge",
  message = "The credential's challenge was not issued by this service, or was altered; use a fresh challenge.",
) => paymentRefused(code, message);
