import type { Tx } from "../db/client";
import { newId } from "../ids";

// The emails written in a transaction, by transaction, for the caller that sends them on commit.
const written = new WeakMap<Tx, string[]>();

/** Called where a transaction starts: the ids of the emails it writes are pushed onto `ids`. */
export function collectOutboundEmails(tx: Tx, ids: string[]) {
  written.set(tx, ids);
}

export type OutboundEmailInput = {
  /** Whose it is: every read of the outbox is scoped by it, and it goes with the organization. */
  organizationId: string;
  /** What it reports: "settlement_change", "payment_receipt", "refund_receipt", "monthly_report", "owner_notice". */
  kind: string;
  /** The row it is about. */
  aboutId: string;
  /** One email per key: a second write with it writes nothing (a receipt recorded twice). */
  dedupeKey?: string;
  to: string;
  subject: string;
  text: string;
  html?: string;
};

/**
 * Writes emails into the outbox inside the transaction that made what they report, so they commit
 * or roll back with it. Returns the ids of the rows written (not those a dedupe key skipped), which
 * the caller sends once the transaction committed (sendOutboundEmailsNow); what is not sent then,
 * the deliver-outbound-emails task sends later.
 */
export async function recordOutboundEmails(tx: Tx, emails: OutboundEmailInput[], now: Date) {
  if (emails.length === 0) return [];
  const rows = await tx.outboundEmail.createManyAndReturn({
    data: emails.map((email) => ({
      id: newId("outboundEmail"),
      ...email,
      nextAttemptAt: now,
      createdAt: now,
    })),
    skipDuplicates: true,
    select: { id: true },
  });
  const ids = rows.map((row) => row.id);
  written.get(tx)?.push(...ids);
  return ids;
}
