// The reports are read from the development mailbox.
process.env.SERVICE_DEV_MAILBOX = "true";

import { describe, expect, it } from "vitest";
import { GET as paymentsReport } from "@/app/api/private/reports/payments/route";
import { db } from "@/lib/db/client";
import { removeMember } from "@/lib/organizations/remove-member";
import { deliverOutboundEmails } from "@/lib/outbox/deliver-outbound-emails";
import { recordOutboundEmails } from "@/lib/outbox/record-outbound-emails";
import { runBackgroundTaskAt } from "@/scripts/test-support/background-task";
import { callRoute } from "@/scripts/test-support/call-route";
import { createTestInvoice, createTestTeam } from "@/scripts/test-support/fixtures";
import { reportEmailComposers } from "./attach-monthly-report";
import { configureMonthlyReport, monthlyReportFormSchema } from "./configure-monthly-report";
import { sendMonthlyReports } from "./send-monthly-reports";

// Last month's payments report, emailed on the 1st: a clock at the 1st sends it once to each owner
// (never a member), a second pass and a second instance send nothing more, and the link in the
// email answers exactly the report of last month's UTC days.

const mailTo = (to: string) =>
  db().devEmail.findMany({ where: { to, subject: { contains: "payments report" } } });

/** The task both job engines run (in process, and Inngest's cron), one pass at `now`. */
const taskPass = (now: string) => runBackgroundTaskAt("send-monthly-reports", new Date(now));

/** A team (two owners, a member) that asked for the monthly report, paid in February, March and April. */
async function shopWithBooks(settings: { monthlyReportTo?: string | null } = {}) {
  const team = await createTestTeam();
  await db().organization.update({
    where: { id: team.organization.id },
    data: { monthlyReportEmail: true, monthlyReportTo: settings.monthlyReportTo ?? null },
  });
  const paid = async (amount: string, at: string, merchantOrderId?: string) =>
    (
      await createTestInvoice(team.organization.id, {
        amount,
        status: "CONFIRMED",
        confirmedAt: new Date(at),
        merchantOrderId,
      })
    ).id;
  const february = await paid("1", "2026-02-28T23:59:59.999Z");
  const march = [
    await paid("12", "2026-03-01T00:00:00Z", '=HYPERLINK("http://evil.example","x")'),
    await paid("30", "2026-03-31T23:59:59.999Z"),
  ];
  const april = await paid("5", "2026-04-01T00:00:00Z");
  return { ...team, february, march, april };
}

describe("the monthly payments report email", () => {
  it("goes once to every owner on the 1st, and its link is last month's report", async () => {
    const shop = await shopWithBooks();
    await taskPass("2026-04-01T00:07:00Z");
    await taskPass("2026-04-01T01:07:00Z");
    await taskPass("2026-04-02T00:07:00Z");
    expect(await mailTo(shop.memberEmail)).toEqual([]);
    for (const owner of shop.ownerEmails) {
      const mails = await mailTo(owner);
      expect(mails).toHaveLength(1);
      expect(mails[0].subject).toBe(`${shop.organization.name}: payments report for March 2026`);
      expect(mails[0].text).toContain("Received: $42.00");
      // The CSV is attached: only its link asks for a sign-in.
      expect(mails[0].text).toContain("is at this link, which asks for a sign-in to the dashboard");
      expect(mails[0].text).not.toContain("sign in to the dashboard first");
    }
    expect(
      await db().monthlyReport.findMany({
        where: { organizationId: shop.organization.id },
        select: { month: true },
      }),
    ).toEqual([{ month: "2026-03" }]);

    const link = /https?:\/\/\S+\/api\/private\/reports\/payments\?\S+/.exec(
      (await mailTo(shop.ownerEmails[0]))[0].text,
    )?.[0];
    expect(link).toMatch(/\?from=2026-03-01&to=2026-04-01&format=csv$/);
    const url = new URL(link as string);
    const csv = await callRoute(paymentsReport, `${url.pathname}${url.search}`, { headers: shop.auth });
    expect(csv.status).toBe(200);
    const rows = csv.text.trimEnd().split("\r\n");
    expect(rows[0]).toMatch(/^paid_at,invoice_id,/);
    expect(rows.slice(1).map((row) => row.split(",")[1])).toEqual(shop.march);

    // The attachment is that answer byte for byte, the formula in an order id neutralised as there.
    const [mail] = await mailTo(shop.ownerEmails[0]);
    expect(mail.text).toContain("Attached: payments-2026-03.csv");
    expect(mail.attachments).toEqual([
      { filename: "payments-2026-03.csv", contentType: "text/csv; charset=utf-8", content: csv.text },
    ]);
    expect(csv.text).toContain(',"\'=HYPERLINK(""http://evil.example""');
  });

  it("goes to the chosen owner only, or to every owner once that email is no longer an owner's", async () => {
    const chosen = await shopWithBooks();
    await db().organization.update({
      where: { id: chosen.organization.id },
      data: { monthlyReportTo: chosen.ownerEmails[1].toUpperCase() },
    });
    const demoted = await shopWithBooks();
    await db().organization.update({
      where: { id: demoted.organization.id },
      data: { monthlyReportTo: demoted.memberEmail },
    });
    await sendMonthlyReports(db(), new Date("2026-05-01T00:07:00Z"));
    expect((await mailTo(chosen.ownerEmails[0])).map((mail) => mail.subject)).toEqual([]);
    expect((await mailTo(chosen.ownerEmails[1])).map((mail) => mail.subject)).toEqual([
      `${chosen.organization.name}: payments report for April 2026`,
    ]);
    for (const owner of demoted.ownerEmails) expect(await mailTo(owner)).toHaveLength(1);
    expect(await mailTo(demoted.memberEmail)).toEqual([]);
  });

  // Each goes only to owners: the report lists payers, an owner's notice carries amounts, links
  // and other members' addresses. (A settlement change's announcement still reaches them: the
  // change waits for it, lib/organizations/remove-member.ts.)
  it.each([
    { kind: "monthly_report", subject: "payments report for March 2026" },
    { kind: "owner_notice", subject: "claim link locked" },
  ] as const)(
    "$kind queued for an owner who is then removed never reaches them",
    async ({ kind, subject }) => {
      const shop = await shopWithBooks();
      const [stays, leaves] = shop.ownerEmails;
      const now = new Date();
      await db().$transaction((tx) =>
        recordOutboundEmails(
          tx,
          [stays, leaves].map((to) => ({
            organizationId: shop.organization.id,
            kind,
            aboutId: "2026-03",
            dedupeKey: `${kind}:${shop.organization.id}:2026-03:${to}`,
            to,
            subject: `${shop.organization.name}: ${subject}`,
            text: "Received: $42.00\n",
          })),
          now,
        ),
      );
      const leaving = await db().membership.findFirstOrThrow({
        where: { organizationId: shop.organization.id, user: { email: leaves } },
      });
      await removeMember(db(), shop.organization.id, leaving.id, {});
      await deliverOutboundEmails(db(), { now, composers: reportEmailComposers });
      const queued = (to: string) =>
        db().devEmail.findMany({ where: { to, subject: { contains: subject } } });
      expect(await queued(leaves)).toEqual([]);
      expect(await queued(stays)).toHaveLength(1);
      expect(
        await db().outboundEmail.count({ where: { organizationId: shop.organization.id, to: leaves } }),
      ).toBe(0);
    },
  );

  it("a settlement change's announcement queued for an owner who is then removed still reaches them: the change waits for it", async () => {
    const shop = await shopWithBooks();
    const [, leaves] = shop.ownerEmails;
    const now = new Date();
    await db().$transaction((tx) =>
      recordOutboundEmails(
        tx,
        [
          {
            organizationId: shop.organization.id,
            kind: "settlement_change",
            aboutId: "stc_removed_owner",
            dedupeKey: `settlement_change:stc_removed_owner:${leaves}`,
            to: leaves,
            subject: `${shop.organization.name}: settlement wallet change requested`,
            text: "A new settlement wallet was requested.\n",
          },
        ],
        now,
      ),
    );
    const leaving = await db().membership.findFirstOrThrow({
      where: { organizationId: shop.organization.id, user: { email: leaves } },
    });
    await removeMember(db(), shop.organization.id, leaving.id, {});
    await deliverOutboundEmails(db(), { now, composers: reportEmailComposers });
    expect(
      await db().devEmail.findMany({
        where: { to: leaves, subject: { contains: "settlement wallet change" } },
      }),
    ).toHaveLength(1);
  });

  it("is sent once when two instances run the pass at the same moment", async () => {
    const shop = await shopWithBooks();
    await Promise.all([
      sendMonthlyReports(db(), new Date("2026-06-01T00:07:00Z")),
      sendMonthlyReports(db(), new Date("2026-06-01T00:07:00Z")),
    ]);
    for (const owner of shop.ownerEmails) expect(await mailTo(owner)).toHaveLength(1);
  });

  it("catches up within the month's first week, not after, and never for an organization that did not ask", async () => {
    const late = await shopWithBooks();
    const off = await shopWithBooks();
    await db().organization.update({
      where: { id: off.organization.id },
      data: { monthlyReportEmail: false },
    });
    await sendMonthlyReports(db(), new Date("2026-07-08T00:00:00Z"));
    expect(await mailTo(late.ownerEmails[0])).toEqual([]);
    await sendMonthlyReports(db(), new Date("2026-07-07T23:59:59Z"));
    expect((await mailTo(late.ownerEmails[0])).map((mail) => mail.subject)).toEqual([
      `${late.organization.name}: payments report for June 2026`,
    ]);
    expect(await mailTo(off.ownerEmails[0])).toEqual([]);
  });

  it("is set by the form to every owner or one owner's email (as stored), and refuses a member's or a stranger's", async () => {
    const team = await createTestTeam();
    const set = (fields: Record<string, string>) =>
      configureMonthlyReport(db(), team.organization.id, monthlyReportFormSchema.parse(fields));
    expect(await set({ monthlyReportEmail: "on", monthlyReportTo: "" })).toEqual({
      monthlyReportEmail: true,
      monthlyReportTo: null,
    });
    expect(
      await set({ monthlyReportEmail: "on", monthlyReportTo: ` ${team.ownerEmails[0].toUpperCase()} ` }),
    ).toEqual({
      monthlyReportEmail: true,
      monthlyReportTo: team.ownerEmails[0],
    });
    for (const stranger of [team.memberEmail, "someone@example.com"]) {
      await expect(set({ monthlyReportEmail: "on", monthlyReportTo: stranger })).rejects.toMatchObject({
        status: 400,
        code: "not_an_owner",
        param: "monthlyReportTo",
      });
    }
    expect(await set({ monthlyReportTo: "" })).toEqual({ monthlyReportEmail: false, monthlyReportTo: null });
  });
});
