import type { Db } from "../db/client";
import { sendOutboundEmailsNow } from "../outbox/deliver-outbound-emails";
import { recordOutboundEmails } from "../outbox/record-outbound-emails";
import { reportEmailComposers } from "./attach-monthly-report";
import { monthOf } from "./month-range";
import { monthlyReportEmail } from "./monthly-report-email";
import { summarizeMonth } from "./summarize-month";

/**
 * Days into a month in which last month's report still goes out: a service that was down on the
 * 1st sends it when it is back, and a month not sent by the 7th is left (the dashboard has it).
 */
export const monthlyReportDays = 7;

/**
 * One pass of the monthly report (both job engines run it, lib/tasks/background-tasks.ts): for
 * every organization that asked for it and has not had last month's yet, queues an email to each
 * recipient (every owner, or the one owner chosen if still an owner) with the month's totals and
 * the link to its payments report, and sends it (the sender attaches the month's CSV). The MonthlyReport row (organization, month) is
 * written in the transaction that queues the emails: a second pass, a second instance or a retry
 * after a crash finds it and queues nothing. Returns how many organizations were queued.
 */
export async function sendMonthlyReports(database: Db, now = new Date()): Promise<number> {
  if (now.getUTCDate() > monthlyReportDays) return 0;
  const month = monthOf(now, 1);
  const due = await database.organization.findMany({
    where: { monthlyReportEmail: true, monthlyReports: { none: { month } } },
    select: {
      id: true,
      name: true,
      monthlyReportTo: true,
      memberships: { where: { role: "OWNER" }, select: { user: { select: { email: true } } } },
    },
    orderBy: { id: "asc" },
  });
  let queued = 0;
  for (const organization of due) {
    const owners = organization.memberships.map(({ user }) => user.email);
    // Only owners get payers' addresses: a chosen email no longer an owner's falls back to them all.
    const chosen = owners.find(
      (email) => email.toLowerCase() === organization.monthlyReportTo?.toLowerCase(),
    );
    const recipients = chosen ? [chosen] : owners;
    const { subject, text } = monthlyReportEmail(
      organization.name,
      await summarizeMonth(database, organization.id, month),
    );
    const ids = await database.$transaction(async (tx) => {
      const claimed = await tx.monthlyReport.createMany({
        data: [{ organizationId: organization.id, month, recipients }],
        skipDuplicates: true,
      });
      if (claimed.count === 0) return null;
      // The outbox's own guard too: one email per recipient and month.
      return recordOutboundEmails(
        tx,
        recipients.map((to) => ({
          organizationId: organization.id,
          kind: "monthly_report",
          aboutId: month,
          dedupeKey: `monthly_report:${organization.id}:${month}:${to}`,
          to,
          subject,
          text,
        })),
        now,
      );
    });
    if (!ids) continue;
    queued++;
    await sendOutboundEmailsNow(database, ids, now, reportEmailComposers);
  }
  return queued;
}
