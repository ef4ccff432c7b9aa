// Announcements are read from the development mailbox.
process.env.SERVICE_DEV_MAILBOX = "true";

import { afterEach, describe, expect, it, vi } from "vitest";
import { db } from "@/lib/db/client";
import { deliverOutboundEmails, outboundEmailGiveUpMs } from "@/lib/outbox/deliver-outbound-emails";
import { runBackgroundTaskAt } from "@/scripts/test-support/background-task";
import { createTestTeam } from "@/scripts/test-support/fixtures";
import { applyDueSettlementChanges } from "./apply-due-settlement-changes";
import { confirmSettlementChange } from "./confirm-settlement-change";
import { requestSettlementChange } from "./request-settlement-change";

// The mail server, as the announcements reach it: down while `mailDown` is set.
const mail = vi.hoisted(() => ({ down: false }));
vi.mock("@/lib/auth/send-email", async (original) => {
  const real = await original<typeof import("@/lib/auth/send-email")>();
  return {
    ...real,
    sendEmail: (...args: Parameters<typeof real.sendEmail>) =>
      mail.down
        ? Promise.reject(new Error("connect ECONNREFUSED (mail server down)"))
        : real.sendEmail(...args),
  };
});
afterEach(() => {
  mail.down = false;
});

const walletA = "0x52908400098527886E0F7030069857D2E4169EE7";
const minute = 60_000;

const mailTo = (to: string, settlementChangeId: string) =>
  db().devEmail.findMany({ where: { to, text: { contains: settlementChangeId } } });

const apiKeyAsks = (organizationId: string) =>
  requestSettlementChange(db(), organizationId, {
    wallets: [{ network: "devnet", address: walletA }],
    decision: "allow",
    proposedBy: { kind: "api_key", name: "Default key" },
    clientAddress: "203.0.113.9",
  });

/** The task both job engines run (in process, and Inngest's cron), one pass at `now`. */
const taskPass = (now: Date) => runBackgroundTaskAt("deliver-outbound-emails", now);

describe("settlement change announcements (an outbox)", () => {
  it("are written with the change and sent once to every owner right after the commit", async () => {
    const { organization, ownerEmails: owners, memberEmail: member } = await createTestTeam();
    const [change] = await apiKeyAsks(organization.id);
    for (const owner of owners) {
      const mails = await mailTo(owner, change.id);
      expect(mails).toHaveLength(1);
      expect(mails[0].text).toContain(walletA);
    }
    expect(await mailTo(member, change.id)).toEqual([]);
    expect(
      await db().outboundEmail.findMany({
        where: { aboutId: change.id },
        select: { to: true, attempts: true, sentAt: true },
      }),
    ).toEqual(expect.arrayContaining(owners.map((to) => ({ to, attempts: 1, sentAt: expect.any(Date) }))));
    // A later pass of the task sends nothing twice.
    await taskPass(new Date(Date.now() + 10 * minute));
    for (const owner of owners) expect(await mailTo(owner, change.id)).toHaveLength(1);
  });

  it("survive the mail server being down at the commit: the task sends them once it is back", async () => {
    const { organization, ownerEmails: owners } = await createTestTeam();
    mail.down = true;
    const [change] = await apiKeyAsks(organization.id);
    // The change stands; nobody has heard of it yet, and the outbox knows.
    expect(change.status).toBe("SCHEDULED");
    for (const owner of owners) expect(await mailTo(owner, change.id)).toEqual([]);
    const waiting = await db().outboundEmail.findMany({ where: { aboutId: change.id } });
    expect(waiting).toHaveLength(owners.length);
    for (const row of waiting) expect(row).toMatchObject({ sentAt: null, attempts: 1, lockedUntil: null });

    // Still down at the first retry; back at the next.
    await taskPass(new Date(Date.now() + 2 * minute));
    for (const owner of owners) expect(await mailTo(owner, change.id)).toEqual([]);
    mail.down = false;
    await taskPass(new Date(Date.now() + 10 * minute));
    for (const owner of owners) expect(await mailTo(owner, change.id)).toHaveLength(1);
  });

  it("hold a credential's change while no owner has been told, then give the owners its whole delay", async () => {
    const { organization } = await createTestTeam();
    mail.down = true;
    const [change] = await apiKeyAsks(organization.id);
    const delay = (change.effectiveAt as Date).getTime() - change.createdAt.getTime();
    expect(delay).toBeGreaterThan(0);
    const inForce = async () =>
      (
        await db().settlementWallet.findFirst({
          where: { organizationId: organization.id, network: "devnet" },
        })
      )?.address ?? null;
    // Its time comes while the mail server is down: nothing changes.
    const due = new Date((change.effectiveAt as Date).getTime() + minute);
    expect(await applyDueSettlementChanges(db(), due, organization.id)).toBe(0);
    expect(await inForce()).toBeNull();
    // The mail server is back; the owners hear of it now, and have the whole delay from then.
    mail.down = false;
    await taskPass(due);
    const sentAt = (
      await db().outboundEmail.findFirstOrThrow({
        where: { aboutId: change.id, sentAt: { not: null } },
      })
    ).sentAt as Date;
    expect(await applyDueSettlementChanges(db(), new Date(due.getTime() + minute), organization.id)).toBe(0);
    const held = await db().settlementChange.findUniqueOrThrow({ where: { id: change.id } });
    expect(held).toMatchObject({ status: "SCHEDULED", effectiveAt: new Date(sentAt.getTime() + delay) });
    expect(await inForce()).toBeNull();
    expect(await applyDueSettlementChanges(db(), new Date(sentAt.getTime() + delay), organization.id)).toBe(
      1,
    );
    expect(await inForce()).toBe(walletA);
  });

  it("survive a crash between the commit and the email: a sender's lapsed claim is sent by the next pass", async () => {
    const { organization, ownerEmails: owners } = await createTestTeam();
    const userId = (
      await db().membership.findFirstOrThrow({ where: { organizationId: organization.id, role: "OWNER" } })
    ).userId;
    const [proposal] = await requestSettlementChange(db(), organization.id, {
      wallets: [{ network: "devnet", address: walletA }],
      decision: "propose",
      proposedBy: { kind: "agent", name: "Bot" },
      clientAddress: null,
    });
    // The process dies after the confirmation commits, holding its claim on the emails it was sending.
    mail.down = true;
    const confirmed = await confirmSettlementChange(db(), organization.id, { id: proposal.id, userId });
    mail.down = false;
    const heldUntil = new Date(Date.now() + 2 * minute);
    await db().outboundEmail.updateMany({
      where: { aboutId: proposal.id, sentAt: null },
      data: { lockedUntil: heldUntil, nextAttemptAt: new Date() },
    });
    const confirmationMails = async () =>
      (
        await db().devEmail.findMany({
          where: { text: { contains: proposal.id }, subject: { not: { startsWith: "Confirm or reject" } } },
        })
      ).length;
    expect(confirmed.status).toBe("APPLIED");
    expect(await confirmationMails()).toBe(0);
    // While the dead sender's claim holds, nobody else sends (no doubles); after it lapses, all go.
    await taskPass(new Date(heldUntil.getTime() - 1000));
    expect(await confirmationMails()).toBe(0);
    await taskPass(new Date(heldUntil.getTime() + 1000));
    expect(await confirmationMails()).toBe(owners.length);
  });

  it("are given up after three days unsent (the dashboard lists the change either way)", async () => {
    const { organization, ownerEmails: owners } = await createTestTeam();
    mail.down = true;
    const [change] = await apiKeyAsks(organization.id);
    mail.down = false;
    const sent = await deliverOutboundEmails(db(), {
      now: new Date(Date.now() + outboundEmailGiveUpMs + minute),
    });
    expect(sent).toBe(0);
    for (const owner of owners) expect(await mailTo(owner, change.id)).toEqual([]);
  });
});
