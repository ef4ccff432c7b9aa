// Announcements are read from the development mailbox.
process.env.SERVICE_DEV_MAILBOX = "true";

import { describe, expect, it } from "vitest";
import { GET, PUT } from "@/app/api/private/organization/current/route";
import { config } from "@/lib/config";
import { db } from "@/lib/db/client";
import { newId, randomBase62 } from "@/lib/ids";
import { clientAddressHeader } from "@/lib/net/client-address";
import { callRoute } from "@/scripts/test-support/call-route";
import {
  createTestAgentCredential,
  createTestInvoice,
  createTestOrganization,
  createTestSweep,
  createTestTeam,
  setTestSettlementWallets,
} from "@/scripts/test-support/fixtures";
import { applyDueSettlementChanges } from "./apply-due-settlement-changes";
import { cancelSettlementChange } from "./cancel-settlement-change";
import { confirmSettlementChange } from "./confirm-settlement-change";
import { rejectSettlementChange } from "./reject-settlement-change";
import { requestSettlementChange } from "./request-settlement-change";

// Integration tests run with DATABASE_URL, so SERVICE_SETTLEMENT_CHANGE_DELAY defaults to 24 h.
const delayMs = 24 * 3600_000;
const path = "/api/private/organization/current";
const walletA = "0x52908400098527886E0F7030069857D2E4169EE7";
const walletB = "0x8617E340B3D01FA5F11F306F4090FD50E238070D";
const walletC = "0xde709f2102306220921060314715629080e2fb77"; // EIP-55 vector: all lower case

const hour = 3600_000;

const inbox = (to: string) => db().devEmail.findMany({ where: { to }, orderBy: { createdAt: "asc" } });
const walletsOf = (organizationId: string) =>
  db().settlementWallet.findMany({ where: { organizationId }, select: { network: true, address: true } });

async function ownerId(organizationId: string) {
  return (await db().membership.findFirstOrThrow({ where: { organizationId, role: "OWNER" } })).userId;
}

const owner = (email: string) => ({ kind: "owner" as const, name: email });

describe("settlement wallet changes", () => {
  it("schedules an API key's first wallet for a network, and a change of it, after the delay", async () => {
    expect(config().settlementChangeDelayMs).toBe(delayMs);
    const { organization, auth, ownerEmails } = await createTestTeam();
    const first = await callRoute(PUT, path, {
      method: "PUT",
      headers: { ...auth, [clientAddressHeader]: "203.0.113.7" },
      body: { settlementWallets: [{ network: "base", address: walletA }] },
    });
    expect(first.status).toBe(200);
    // Nothing waits on base, but what buyers pay next would go there: owners hear of it first.
    expect(first.json.data.settlementWallets).toEqual([]);
    const [firstPending] = first.json.data.pendingSettlementWallets;
    expect(firstPending).toMatchObject({ network: "base", address: walletA, status: "scheduled" });
    expect(Date.parse(firstPending.effectiveAt) - Date.parse(firstPending.proposedAt)).toBe(delayMs);
    expect(await applyDueSettlementChanges(db(), new Date(Date.parse(firstPending.effectiveAt) - 1000))).toBe(
      0,
    );
    expect(await walletsOf(organization.id)).toEqual([]);
    expect(await applyDueSettlementChanges(db(), new Date(firstPending.effectiveAt))).toBe(1);
    expect(await walletsOf(organization.id)).toEqual([{ network: "base", address: walletA }]);

    const changed = await callRoute(PUT, path, {
      method: "PUT",
      headers: { ...auth, [clientAddressHeader]: "203.0.113.7" },
      body: { settlementWallets: [{ network: "base", address: walletB }] },
    });
    expect(changed.status).toBe(200);
    // The wallet in force stays until the change is due.
    expect(changed.json.data.settlementWallets).toEqual([{ network: "base", address: walletA }]);
    const [pending] = changed.json.data.pendingSettlementWallets;
    expect(pending).toMatchObject({
      network: "base",
      address: walletB,
      status: "scheduled",
      proposedBy: { kind: "api_key" },
    });
    const effectiveAt = new Date(pending.effectiveAt);
    expect(effectiveAt.getTime() - Date.parse(pending.proposedAt)).toBe(delayMs);

    expect(await applyDueSettlementChanges(db(), new Date(effectiveAt.getTime() - 1000))).toBe(0);
    expect(await walletsOf(organization.id)).toEqual([{ network: "base", address: walletA }]);
    expect(await applyDueSettlementChanges(db(), effectiveAt)).toBe(1);
    expect(await walletsOf(organization.id)).toEqual([{ network: "base", address: walletB }]);
    const after = await callRoute(GET, path, { headers: auth });
    expect(after.json.data.settlementWallets).toEqual([{ network: "base", address: walletB }]);
    expect(after.json.data.pendingSettlementWallets).toEqual([]);

    // Every owner heard of both: the first wallet (in force) and the change (with its time and cancel link).
    for (const email of ownerEmails) {
      const messages = await inbox(email);
      expect(messages).toHaveLength(2);
      expect(messages[1].text).toContain(walletB);
      expect(messages[1].text).toContain(`Wallet in force: ${walletA}`);
      expect(messages[1].text).toContain("203.0.113.7");
      expect(messages[1].text).toContain(effectiveAt.toISOString());
      expect(messages[1].text).toContain(`${config().baseUrl}/dashboard/settlement/changes/${pending.id}`);
      expect(messages[1].text).toMatch(/Cancel it before then/);
    }
  });

  it("turns an agent's change into a proposal that changes nothing until an owner confirms it", async () => {
    const { organization, ownerEmails, memberEmail } = await createTestTeam();
    await setTestSettlementWallets(organization.id, [{ network: "base", address: walletA }]);
    const agent = await createTestAgentCredential(organization.id, "write");
    const proposed = await callRoute(PUT, path, {
      method: "PUT",
      headers: { ...agent.auth, [clientAddressHeader]: "198.51.100.23" },
      body: {
        name: "Renamed by agent",
        settlementWallets: [
          { network: "base", address: walletB },
          { network: "devnet", address: walletC },
        ],
      },
    });
    expect(proposed.status).toBe(200);
    expect(proposed.json.data.name).toBe("Renamed by agent");
    expect(proposed.json.data.settlementWallets).toEqual([{ network: "base", address: walletA }]);
    expect(proposed.json.data.pendingSettlementWallets).toEqual([
      expect.objectContaining({
        network: "base",
        address: walletB,
        status: "proposed",
        proposedBy: { kind: "agent", name: "Test agent" },
        effectiveAt: null,
      }),
      expect.objectContaining({ network: "devnet", address: walletC, status: "proposed" }),
    ]);
    // Not even a due pass of the sweeper puts a proposal in force.
    await applyDueSettlementChanges(db(), new Date(Date.now() + 365 * 24 * hour));
    expect(await walletsOf(organization.id)).toEqual([{ network: "base", address: walletA }]);

    const [base] = proposed.json.data.pendingSettlementWallets;
    for (const email of ownerEmails) {
      const proposal = (await inbox(email)).find((message) => message.text.includes(base.id));
      expect(proposal?.subject).toMatch(/^Confirm or reject: settlement wallet change on base/);
      expect(proposal?.text).toContain(walletB);
      expect(proposal?.text).toContain("Test agent (an agent credential)");
      expect(proposal?.text).toContain("198.51.100.23");
    }
    expect(await inbox(memberEmail)).toEqual([]);

    // The owner confirms: the base wallet existed, so the change waits out the delay.
    const now = new Date();
    const confirmed = await confirmSettlementChange(
      db(),
      organization.id,
      { id: base.id, userId: await ownerId(organization.id) },
      now,
    );
    expect(confirmed).toMatchObject({ status: "SCHEDULED", previousAddress: walletA });
    expect(confirmed.effectiveAt?.getTime()).toBe(now.getTime() + delayMs);
    // Confirmed, it is announced again with its time and the cancel link.
    for (const email of ownerEmails) {
      const announced = (await inbox(email)).filter((message) => message.text.includes(base.id));
      expect(announced.at(-1)?.text).toContain(`takes effect at ${confirmed.effectiveAt?.toISOString()}`);
    }
    expect(await walletsOf(organization.id)).toEqual([{ network: "base", address: walletA }]);
    await applyDueSettlementChanges(db(), new Date(now.getTime() + delayMs));
    expect(await walletsOf(organization.id)).toEqual([{ network: "base", address: walletB }]);

    // devnet had no wallet: confirming puts it in force at once.
    const devnet = proposed.json.data.pendingSettlementWallets[1];
    const applied = await confirmSettlementChange(db(), organization.id, {
      id: devnet.id,
      userId: await ownerId(organization.id),
    });
    expect(applied.status).toBe("APPLIED");
    expect(await walletsOf(organization.id)).toContainEqual({ network: "devnet", address: walletC });
  });

  it("rejects and cancels: nothing takes effect, and a decided change cannot be decided again", async () => {
    const { organization } = await createTestTeam();
    const userId = await ownerId(organization.id);
    await requestSettlementChange(db(), organization.id, {
      wallets: [{ network: "base", address: walletA }],
      decision: "allow",
      proposedBy: owner("o@example.com"),
      clientAddress: null,
    });
    const [proposal] = await requestSettlementChange(db(), organization.id, {
      wallets: [{ network: "base", address: walletB }],
      decision: "propose",
      proposedBy: { kind: "oauth", name: "Some app" },
      clientAddress: "192.0.2.1",
    });
    expect((await rejectSettlementChange(db(), organization.id, { id: proposal.id, userId })).status).toBe(
      "REJECTED",
    );
    await expect(
      confirmSettlementChange(db(), organization.id, { id: proposal.id, userId }),
    ).rejects.toMatchObject({ status: 400, code: "settlement_change_decided" });

    const [scheduled] = await requestSettlementChange(db(), organization.id, {
      wallets: [],
      decision: "allow",
      proposedBy: { kind: "api_key", name: "Default key" },
      clientAddress: null,
    });
    expect(scheduled).toMatchObject({ status: "SCHEDULED", address: null, previousAddress: walletA });
    expect((await cancelSettlementChange(db(), organization.id, { id: scheduled.id, userId })).status).toBe(
      "CANCELLED",
    );
    await applyDueSettlementChanges(db(), new Date(Date.now() + 2 * delayMs));
    expect(await walletsOf(organization.id)).toEqual([{ network: "base", address: walletA }]);

    // Another organization's owner cannot decide it.
    const other = await createTestOrganization("Other");
    await expect(
      cancelSettlementChange(db(), other.organization.id, { id: proposal.id, userId }),
    ).rejects.toMatchObject({ status: 404 });
  });

  it("lets a new request supersede older open changes, but never lets a proposal cancel a decided one", async () => {
    const { organization } = await createTestTeam();
    const request = (address: string, decision: "allow" | "propose") =>
      requestSettlementChange(db(), organization.id, {
        wallets: [{ network: "base", address }],
        decision,
        proposedBy: decision === "allow" ? owner("o@example.com") : { kind: "agent", name: "Bot" },
        clientAddress: null,
      });
    await request(walletA, "allow");
    const [scheduled] = await request(walletB, "allow");
    const [firstProposal] = await request(walletC, "propose");
    const [secondProposal] = await request(walletB, "propose");
    const status = async (id: string) =>
      (await db().settlementChange.findUniqueOrThrow({ where: { id } })).status;
    expect(await status(scheduled.id)).toBe("SCHEDULED");
    expect(await status(firstProposal.id)).toBe("CANCELLED");
    expect(await status(secondProposal.id)).toBe("PROPOSED");
    // The same proposal again is not a new one (nobody is emailed twice).
    expect(await request(walletB, "propose")).toEqual([]);
    // A decided request supersedes everything open for the network.
    const [latest] = await request(walletC, "allow");
    expect(await status(scheduled.id)).toBe("CANCELLED");
    expect(await status(secondProposal.id)).toBe("CANCELLED");
    expect(await status(latest.id)).toBe("SCHEDULED");
  });

  it("caps change requests per organization, so owners' mail cannot be flooded", async () => {
    const { organization, ownerEmails } = await createTestTeam();
    const agent = await createTestAgentCredential(organization.id, "write");
    const propose = (address: string) =>
      callRoute(PUT, path, {
        method: "PUT",
        headers: agent.auth,
        body: { settlementWallets: [{ network: "base", address }] },
      });
    for (let i = 0; i < 30; i++) expect((await propose(i % 2 ? walletA : walletB)).status).toBe(200);
    const mailBefore = (await inbox(ownerEmails[0])).length;
    const refused = await propose(walletC);
    expect(refused.status).toBe(429);
    expect(refused.headers.get("retry-after")).toMatch(/^\d+$/);
    expect(
      await db().settlementChange.count({ where: { organizationId: organization.id, address: walletC } }),
    ).toBe(0);
    expect((await inbox(ownerEmails[0])).length).toBe(mailBefore);
    // Owners have a budget of their own: a flooding credential cannot keep them from fixing things.
    const [fixed] = await requestSettlementChange(db(), organization.id, {
      wallets: [{ network: "base", address: walletC }],
      decision: "allow",
      proposedBy: owner(ownerEmails[0]),
      clientAddress: null,
    });
    expect(fixed).toMatchObject({ status: "APPLIED", address: walletC });
    // Other organizations are not affected.
    const other = await createTestOrganization();
    expect(
      (await callRoute(PUT, path, { method: "PUT", headers: other.auth, body: { settlementWallets: [] } }))
        .status,
    ).toBe(200);
  });

  it.each([
    // [what the organization has on the network, whether an owner's first wallet waits the delay]
    ["nothing", false],
    ["an invoice awaiting payment", true],
    ["a partially paid invoice", true],
    ["an invoice whose payment is confirming", true],
    ["an overdue invoice still watched for a late payment", true],
    ["an overdue invoice past the late window, nothing received", false],
    ["a confirmed invoice not swept yet", true],
    ["a confirmed invoice swept", false],
    ["an open invoice on another network", false],
  ] as const)("an owner's first wallet with %s: delayed %s", async (what, delayed) => {
    const { organization } = await createTestOrganization();
    const invoiceIn = (
      status: "AWAITING_PAYMENT" | "PARTIALLY_PAID" | "CONFIRMING" | "CONFIRMED" | "OVERDUE",
    ) => createTestInvoice(organization.id, { amount: "10", status });
    const paid = async (invoiceId: string, status: "CONFIRMED" | "CONFIRMING") =>
      db().payment.create({
        data: {
          id: newId("payment"),
          organizationId: organization.id,
          invoiceId,
          txHash: `0x${randomBase62(32).toLowerCase()}`,
          logIndex: 0,
          amount: "10",
          blockNumber: 1n,
          blockHash: "0x01",
          status,
        },
      });
    if (what === "an invoice awaiting payment") await invoiceIn("AWAITING_PAYMENT");
    if (what === "a partially paid invoice") await invoiceIn("PARTIALLY_PAID");
    if (what === "an invoice whose payment is confirming")
      await paid((await invoiceIn("CONFIRMING")).id, "CONFIRMING");
    if (what === "an overdue invoice still watched for a late payment") await invoiceIn("OVERDUE");
    if (what === "an overdue invoice past the late window, nothing received") {
      const invoice = await invoiceIn("OVERDUE");
      await db().invoice.update({
        where: { id: invoice.id },
        data: { deadline: new Date(Date.now() - 25 * hour) },
      });
    }
    if (what.startsWith("a confirmed invoice")) {
      const invoice = await invoiceIn("CONFIRMED");
      await db().invoice.update({
        where: { id: invoice.id },
        data: { deadline: new Date(Date.now() - 25 * hour) },
      });
      await paid(invoice.id, "CONFIRMED");
      if (what === "a confirmed invoice swept")
        await createTestSweep(organization.id, { status: "CONFIRMED", invoice });
    }
    if (what === "an open invoice on another network") {
      const invoice = await invoiceIn("AWAITING_PAYMENT");
      await db().invoice.update({ where: { id: invoice.id }, data: { network: "base" } });
    }
    const [change] = await requestSettlementChange(db(), organization.id, {
      wallets: [{ network: "devnet", address: walletA }],
      decision: "allow",
      proposedBy: owner("o@example.com"),
      clientAddress: null,
    });
    expect(change.status).toBe(delayed ? "SCHEDULED" : "APPLIED");
    expect(await walletsOf(organization.id)).toEqual(
      delayed ? [] : [{ network: "devnet", address: walletA }],
    );
  });
});
