import { config } from "../config";
import type { MonthSummary } from "./summarize-month";

const monthName = new Intl.DateTimeFormat("en-US", { month: "long", year: "numeric", timeZone: "UTC" });
const usd = (amount: string) =>
  new Intl.NumberFormat("en-US", { style: "currency", currency: "USD" }).format(
    amount as unknown as number, // Intl formats decimal strings exactly
  );
const day = (at: Date) => at.toISOString().slice(0, 10);

/** The payments report's CSV of a month: it answers a signed-in member's browser as the API key. */
export function monthlyReportUrl(month: Pick<MonthSummary, "from" | "to">) {
  const query = new URLSearchParams({ from: day(month.from), to: day(month.to), format: "csv" });
  return `${config().baseUrl}/api/private/reports/payments?${query}`;
}

/**
 * The email an owner gets on the 1st: the month's totals and a link to its payments report; the
 * report's CSV itself is attached when the email is sent (lib/reports/attach-monthly-report.ts).
 */
export function monthlyReportEmail(organizationName: string, summary: MonthSummary) {
  const { serviceName, baseUrl } = config();
  const month = monthName.format(summary.from);
  const tokens = summary.tokens.map(
    (row) => `  ${row.token}: received ${row.received}, refunded ${row.refunded}, net ${row.net}`,
  );
  return {
    subject: `${organizationName}: payments report for ${month}`,
    text: [
      `The payments report of ${organizationName} for ${month} (UTC) is ready on ${serviceName}.`,
      "",
      `Received: ${usd(summary.usd.received)}`,
      `Refunded: ${usd(summary.usd.refunded)}`,
      `Net: ${usd(summary.usd.net)}`,
      "(USD at each payment's locked quote; refunds in the month they succeeded.)",
      ...(tokens.length ? ["", "By token:", ...tokens] : []),
      "",
      "The month's CSV, one row per payment, is at this link, which asks for a sign-in to the dashboard (it lists payers' addresses and amounts):",
      "",
      monthlyReportUrl(summary),
      "",
      `The month on the dashboard: ${baseUrl}/dashboard?month=${summary.month}`,
      "",
      `You get this as an owner of ${organizationName}. An owner turns it off in Settings, Monthly report.`,
      "",
    ].join("\n"),
  };
}
