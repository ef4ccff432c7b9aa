import { config } from "../config";
import type { Tx } from "../db/client";
import type { SettlementChange } from "../generated/prisma/client";
import { recordOutboundEmails } from "../outbox/record-outbound-emails";

const kindLabels: Record<string, string> = {
  owner: "an owner, in the dashboard",
  api_key: "an API key",
  agent: "an agent credential",
  oauth: "an app connected with OAuth",
};

/** "an agent credential": how the kind of whoever asked reads in emails and on the page. */
export function proposedByLabel(kind: string): string {
  return kindLabels[kind] ?? kind;
}

/** The dashboard page where an owner confirms, rejects or cancels the change. */
export function settlementChangePath(id: string) {
  return `/dashboard/settlement/changes/${id}`;
}

function announcementOf(
  change: SettlementChange,
  organizationName: string,
): { subject: string; text: string } {
  const { serviceName, baseUrl } = config();
  const link = `${baseUrl}${settlementChangePath(change.id)}`;
  const what = change.address
    ? `New settlement wallet on ${change.network}: ${change.address}`
    : `Remove the settlement wallet on ${change.network} (payments then stay on their deposit addresses)`;
  const facts = [
    what,
    `Wallet in force: ${change.previousAddress ?? "none"}`,
    `Asked by: ${change.proposedByName} (${proposedByLabel(change.proposedByKind)})`,
    `From client address: ${change.clientAddress ?? "unknown"}`,
  ].join("\n");
  if (change.status === "PROPOSED") {
    return {
      subject: `Confirm or reject: settlement wallet change on ${change.network} for ${organizationName}`,
      text: `A change of where ${organizationName} is paid out on ${serviceName} was proposed. Nothing changes unless an owner confirms it.\n\n${facts}\n\nConfirm or reject it (you will be asked to sign in again if your last sign-in is older than 10 minutes):\n\n${link}\n\nIf you do not recognise this request, reject it and revoke the credential that sent it.\n`,
    };
  }
  const when =
    change.status === "APPLIED"
      ? change.previousAddress
        ? "It took effect at once: no delay is configured for settlement changes (SERVICE_SETTLEMENT_CHANGE_DELAY)."
        : "It took effect at once: this network had no settlement wallet."
      : `It takes effect at ${change.effectiveAt?.toISOString()}; until then ${
          change.previousAddress
            ? "sweeps go on to the wallet in force"
            : "payments received on this network stay on their deposit addresses, and then they are paid to this wallet"
        }.`;
  return {
    subject: `Settlement wallet change on ${change.network} for ${organizationName}`,
    text: `Where ${organizationName} is paid out on ${serviceName} changes.\n\n${facts}\n\n${when}\n\n${
      change.status === "SCHEDULED" ? "Cancel it before then" : "Review it"
    }:\n\n${link}\n\nIf you did not expect this change, cancel it and revoke the credential that made it.\n`,
  };
}

/** What an owner's announcement of a settlement change is in the outbox (lib/outbox/). */
export const settlementAnnouncementKind = "settlement_change";

/**
 * Writes into the outbox, inside the transaction that made the changes, one announcement per
 * change and owner (a proposal with the page to confirm or reject it, a decided change with when
 * it takes effect and how to cancel it): they commit or roll back with the changes. Returns their
 * ids, which the caller sends once the transaction committed (sendOutboundEmailsNow).
 */
export async function recordSettlementAnnouncements(
  tx: Tx,
  organizationId: string,
  changes: SettlementChange[],
  now: Date,
): Promise<string[]> {
  if (changes.length === 0) return [];
  const organization = await tx.organization.findUniqueOrThrow({
    where: { id: organizationId },
    select: {
      name: true,
      memberships: { where: { role: "OWNER" }, select: { user: { select: { email: true } } } },
    },
  });
  const emails = changes.flatMap((change) => {
    const email = announcementOf(change, organization.name);
    return organization.memberships.map(({ user }) => ({
      organizationId,
      kind: settlementAnnouncementKind,
      aboutId: change.id,
      to: user.email,
      ...email,
    }));
  });
  return recordOutboundEmails(tx, emails, now);
}
