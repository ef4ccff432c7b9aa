import type { EmailAttachment } from "../auth/send-email";
import type { Db } from "../db/client";
import type { OutboundEmailComposers } from "../outbox/deliver-outbound-emails";
import { monthRange } from "./month-range";
import { paymentReportColumns, readPaymentReport } from "./read-payment-report";
import { streamCsv } from "./stream-csv";
import { streamReport } from "./stream-report";

/** Past either, the monthly email carries the link only: a mailbox refuses big files anyway. */
export const monthlyReportAttachmentMaxRows = 50_000;
export const monthlyReportAttachmentMaxBytes = 5 * 1024 * 1024;

/**
 * The monthly email as sent, from its outbox row (organizationId, aboutId: the month): its text and
 * the month's payments CSV as payments-YYYY-MM.csv, built at send time rather than stored in the
 * row, from the same code as the payments report's answer for that month, so a resend carries the
 * same file. A month past the caps goes with the link alone, and the text says so.
 */
export async function attachMonthlyReport(
  database: Db,
  email: { organizationId: string; aboutId: string; text: string },
): Promise<{ text: string; attachments?: EmailAttachment[] }> {
  const csv = await monthCsv(database, email.organizationId, email.aboutId);
  if (!csv) {
    const limit = `${monthlyReportAttachmentMaxRows.toLocaleString("en-US")} payments or ${monthlyReportAttachmentMaxBytes / 1024 / 1024} MB`;
    return {
      text: `${email.text}
The CSV is not attached: the month has over ${limit} of it. Download it from the link above.
`,
    };
  }
  return {
    text: `${email.text}
Attached: ${csv.filename}, the same CSV as the link above.
`,
    attachments: [csv],
  };
}

/** What the outbox's senders build for the reports' emails at send time. */
export const reportEmailComposers: OutboundEmailComposers = { monthly_report: attachMonthlyReport };

/** The month's payments CSV, or null past the caps. */
async function monthCsv(
  database: Db,
  organizationId: string,
  month: string,
): Promise<EmailAttachment | null> {
  const report = readPaymentReport(database, organizationId, monthRange(month));
  if ((await report.count()) > monthlyReportAttachmentMaxRows) return null;
  const reader = streamCsv(paymentReportColumns, streamReport(report.read)).getReader();
  const chunks: Uint8Array[] = [];
  let bytes = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    bytes += value.byteLength;
    if (bytes > monthlyReportAttachmentMaxBytes) {
      await reader.cancel();
      return null;
    }
    chunks.push(value);
  }
  return {
    filename: `payments-${month}.csv`,
    contentType: "text/csv; charset=utf-8",
    content: Buffer.concat(chunks).toString("utf8"),
  };
}
