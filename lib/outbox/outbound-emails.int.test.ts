// Emails are read from the development mailbox.
process.env.SERVICE_DEV_MAILBOX = "true";

import { describe, expect, it } from "vitest";
import { db } from "@/lib/db/client";
import { newId } from "@/lib/ids";
import { createTestOrganization } from "@/scripts/test-support/fixtures";
import { deliverOutboundEmails, sendOutboundEmailsNow } from "./deliver-outbound-emails";
import { recordOutboundEmails } from "./record-outbound-emails";

const inbox = (to: string) => db().devEmail.findMany({ where: { to } });

describe("the outbox of emails", () => {
  it("writes an email with its transaction, sends it once, and writes a keyed email only once", async () => {
    const { organization } = await createTestOrganization();
    const to = `buyer-${newId("outboundEmail").toLowerCase()}@example.com`;
    const aboutId = newId("invoice");
    const email = {
      organizationId: organization.id,
      kind: "payment_receipt",
      aboutId,
      dedupeKey: `test:${aboutId}`,
      to,
      subject: "Your receipt",
      text: "Paid.",
      html: "<p>Paid.</p>",
    };
    const now = new Date();
    const first = await db().$transaction((tx) => recordOutboundEmails(tx, [email], now));
    const again = await db().$transaction((tx) => recordOutboundEmails(tx, [email], now));
    expect(first).toHaveLength(1);
    expect(again).toEqual([]);
    await sendOutboundEmailsNow(db(), first, now);
    await sendOutboundEmailsNow(db(), first, now);
    expect(await deliverOutboundEmails(db(), { now: new Date(now.getTime() + 60 * 60_000) })).toBe(0);
    const mails = await inbox(to);
    expect(mails).toMatchObject([{ subject: "Your receipt", text: "Paid.", html: "<p>Paid.</p>" }]);
  });

  it("rolls back with its transaction: nothing is owed for a change that did not commit", async () => {
    const { organization } = await createTestOrganization();
    const aboutId = newId("invoice");
    await expect(
      db().$transaction(async (tx) => {
        await recordOutboundEmails(
          tx,
          [
            {
              organizationId: organization.id,
              kind: "payment_receipt",
              aboutId,
              to: "x@example.com",
              subject: "s",
              text: "t",
            },
          ],
          new Date(),
        );
        throw new Error("the change failed");
      }),
    ).rejects.toThrow("the change failed");
    expect(await db().outboundEmail.count({ where: { aboutId } })).toBe(0);
  });
});
