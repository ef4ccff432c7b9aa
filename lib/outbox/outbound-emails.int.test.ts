// Emails are read from the development mailbox.
process.env.SERVICE_DEV_MAILBOX = "true";

import { setTimeout as sleep } from "node:timers/promises";
import { describe, expect, it, vi } from "vitest";
import { db } from "@/lib/db/client";
import { newId } from "@/lib/ids";
import { createTestOrganization } from "@/scripts/test-support/fixtures";
import { deliverOutboundEmails, outboundEmailHoldMs, sendOutboundEmailsNow } from "./deliver-outbound-emails";
import { recordOutboundEmails } from "./record-outbound-emails";

// A slow mail server for recipients at slow.example: the real send into the development mailbox,
// after a delay.
const slowSendMs = 300;
vi.mock("@/lib/auth/send-email", async (importOriginal) => {
  const real = await importOriginal<typeof import("@/lib/auth/send-email")>();
  return {
    sendEmail: async (...args: Parameters<typeof real.sendEmail>) => {
      if (args[1].to.endsWith("@slow.example")) await sleep(slowSendMs);
      return real.sendEmail(...args);
    },
  };
});

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

  it("sends each email once when sends are slow and a sender's hold runs out mid-batch", async () => {
    const { organization } = await createTestOrganization();
    const written = new Date(Date.now() - outboundEmailHoldMs - 60_000);
    const recipients = Array.from(
      { length: 8 },
      (_, i) => `r${i}-${newId("outboundEmail").toLowerCase()}@slow.example`,
    );
    const ids = await db().$transaction((tx) =>
      recordOutboundEmails(
        tx,
        recipients.map((to) => ({
          organizationId: organization.id,
          kind: "payment_receipt",
          aboutId: newId("invoice"),
          to,
          subject: "Your receipt",
          text: "Paid.",
        })),
        written,
      ),
    );
    // The first sender's clock runs a hold minus a second behind: each hold it takes runs out a
    // second later, well before the batch's slow sends are done.
    const first = deliverOutboundEmails(db(), {
      ids,
      now: new Date(Date.now() - outboundEmailHoldMs + 1000),
    });
    await sleep(1300);
    const second = deliverOutboundEmails(db(), { ids });
    const [a, b] = await Promise.all([first, second]);
    expect(b).toBeGreaterThan(0);
    expect(a + b).toBe(recipients.length);
    const mails = await db().devEmail.findMany({ where: { to: { in: recipients } } });
    expect(mails.map((mail) => mail.to).sort()).toEqual([...recipients].sort());
    expect(await db().outboundEmail.count({ where: { id: { in: ids }, sentAt: null } })).toBe(0);
  });
});
