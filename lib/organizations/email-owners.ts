import type { Tx } from "../db/client";
import { recordOutboundEmails } from "../outbox/record-outbound-emails";

/**
 * Records an email to every owner of the organization (but `except`, the user who acted) in the
 * outbox, inside the transaction that makes the change it tells of: it exists if and only if the
 * change committed. Returns the ids of the emails, which the caller sends once the transaction
 * committed (sendOutboundEmailsNow, not awaited: a slow mail server must not hold the request);
 * what that does not send, lib/outbox/deliver-outbound-emails.ts retries.
 */
export async function emailOwners(
  tx: Tx,
  organizationId: string,
  email: { aboutId: string; subject: string; text: string },
  now: Date,
  except?: string,
) {
  const owners = await tx.membership.findMany({
    where: { organizationId, role: "OWNER", ...(except ? { userId: { not: except } } : {}) },
    select: { user: { select: { email: true } } },
  });
  return recordOutboundEmails(
    tx,
    owners.map(({ user }) => ({ organizationId, kind: "owner_notice", to: user.email, ...email })),
    now,
  );
}
