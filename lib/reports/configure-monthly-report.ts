import { z } from "zod";
import type { Tx } from "../db/client";
import { invalidRequest } from "../errors";

/**
 * The dashboard's monthly report form (owners): a checkbox, which a browser sends as "on" when
 * ticked and leaves out when not, and whom to send it to: "" for every owner, else one owner's
 * email.
 */
export const monthlyReportFormSchema = z.strictObject({
  monthlyReportEmail: z
    .literal("on", { error: "must be ticked or left out" })
    .optional()
    .transform((ticked) => ticked === "on"),
  monthlyReportTo: z
    .string({ error: "must be an owner's email, or empty for every owner" })
    .trim()
    .max(320)
    .transform((email) => email || null),
});

/**
 * Turns the monthly payments report email on or off, and names its one recipient (else every
 * owner); what is left out stays as it is. The report holds payers' addresses and amounts: a recipient must be an owner of this
 * organization now (and is checked again when it is sent, lib/reports/send-monthly-reports.ts).
 */
export async function configureMonthlyReport(
  database: Tx,
  organizationId: string,
  input: { monthlyReportEmail?: boolean; monthlyReportTo?: string | null },
) {
  if (input.monthlyReportTo) {
    // Compared as text, not as a pattern: an organization has a handful of owners.
    const wanted = input.monthlyReportTo.toLowerCase();
    const owners = await database.membership.findMany({
      where: { organizationId, role: "OWNER" },
      select: { user: { select: { email: true } } },
    });
    const owner = owners.find(({ user }) => user.email.toLowerCase() === wanted);
    if (!owner)
      throw invalidRequest(
        "not_an_owner",
        "The monthly report goes only to owners: choose an owner's email, or every owner.",
        "monthlyReportTo",
      );
    input = { ...input, monthlyReportTo: owner.user.email };
  }
  return database.organization.update({
    where: { id: organizationId },
    data: { monthlyReportEmail: input.monthlyReportEmail, monthlyReportTo: input.monthlyReportTo },
    select: { monthlyReportEmail: true, monthlyReportTo: true },
  });
}
