import { reportQuery } from "crypto-checkout-agent/contracts";
import { z } from "zod";
import { refineContractInput } from "../validation/refine-contract-input";

// An instant needs its offset: a local time without one names a different instant in every time
// zone, so books would differ by where the server runs. A bare date is that day's UTC midnight.
const instantField = z
  .union([z.iso.datetime({ offset: true }), z.iso.date()], {
    error:
      "must be an ISO 8601 time with its offset (2026-03-01T00:00:00+01:00, or …Z) or a date (2026-03-01)",
  })
  .transform((value) => new Date(value.length === 10 ? `${value}T00:00:00Z` : value))
  // Books start with this service: an instant before 2000 (or past 9999, whatever its offset makes
  // of it) names no payment here, and PostgreSQL refuses a year 0 outright.
  .refine((at) => at.getUTCFullYear() >= 2000 && at.getUTCFullYear() <= 9999, {
    error: "must be a time from the year 2000 to 9999",
  })
  .meta({ example: "2026-03-01T00:00:00Z" });

const wholeNumber = (max: number) => {
  const error = `must be a whole number from 1 to ${max}`;
  return z.coerce.number({ error }).int({ error }).min(1, { error }).max(max, { error });
};

/** GET /api/private/reports/payments and /refunds: the range [from, to), the format, JSON's page. */
export const reportQuerySchema = refineContractInput(reportQuery, {
  from: instantField,
  to: instantField,
  format: z.enum(["csv", "json"], { error: "must be csv or json" }).default("csv"),
  page: wholeNumber(1_000_000).default(1),
  rows: wholeNumber(1000).default(1000),
}).superRefine((value, context) => {
  // No cap on the span: the CSV streams any range in flat memory and JSON answers a page.
  if (value.to.getTime() <= value.from.getTime()) {
    context.addIssue({ code: "custom", path: ["to"], message: "must be after from", input: value.to });
  }
});

export type ReportQuery = z.output<typeof reportQuerySchema>;
/** The half-open range [from, to) of a report. */
export type ReportRange = Pick<ReportQuery, "from" | "to">;
