import { createHash } from "node:crypto";
import { clientLimitKey } from "../net/client-address";
import { consumeRateLimit } from "../rate-limit/rate-limit";

/**
 * Counts one outgoing email (a sign-in link, an invitation, an agent signup) against the budgets
 * of the client that asked for it, of the recipient and, when there is one, of the organization;
 * throws the 429 (with Retry-After) once any of them is spent. Call it before anything is written
 * or sent. Recipients are keyed by a hash, so the shared limit store holds no email addresses.
 */
export async function assertEmailSendAllowed(input: {
  /** The requesting client; absent for emails the service sends on its own schedule (renewals). */
  clientAddress?: string;
  email: string;
  organizationId?: string;
}): Promise<void> {
  if (input.clientAddress) await consumeRateLimit("emailClient", clientLimitKey(input.clientAddress));
  await consumeRateLimit(
    "emailAddress",
    createHash("sha256").update(input.email.trim().toLowerCase()).digest("hex"),
  );
  if (input.organizationId) await consumeRateLimit("emailOrganization", input.organizationId);
}
