// Owners hear of each settlement change by email (here the development mailbox): a credential's
// change takes effect only once they have (lib/settlement/announced-effective-at.ts).
process.env.SERVICE_DEV_MAILBOX = "true";

import { describe, expect, inject, it, vi } from "vitest";
import { db } from "@/lib/db/client";
import { updateOrganization } from "@/lib/organizations/update-organization";
import { applyDueSettlementChanges } from "@/lib/settlement/apply-due-settlement-changes";
import { callRoute } from "@/scripts/test-support/call-route";
import { createTestAgentCredential, createTestOrganization } from "@/scripts/test-support/fixtures";
import { GET, PUT } from "./route";

const path = "/api/private/organization/current";
const address = "0x52908400098527886E0F7030069857D2E4169EE7"; // EIP-55 test vector

describe("PUT /api/private/organization/current", () => {
  it("sets the merchant's details for receipts and the receipt emails switch; null clears a detail", async () => {
    const { auth } = await createTestOrganization();
    const details = {
      legalName: "Acme GmbH",
      legalAddress: "Hauptstr. 1\r\n10115 Berlin",
      taxId: "DE123456789",
      supportEmail: " Help@Acme.Example ",
      receiptEmails: false,
    };
    const set = await callRoute(PUT, path, { method: "PUT", headers: auth, body: details });
    expect(set.status).toBe(200);
    expect(set.json.data).toMatchObject({
      merchantDetails: {
        legalName: "Acme GmbH",
        address: "Hauptstr. 1\n10115 Berlin",
        taxId: "DE123456789",
        supportEmail: "help@acme.example",
      },
      receiptEmails: false,
    });
    const cleared = await callRoute(PUT, path, { method: "PUT", headers: auth, body: { taxId: null } });
    expect(cleared.json.data.merchantDetails).toMatchObject({ legalName: "Acme GmbH", taxId: null });
  });

  it.each([
    ["a support email that is two addresses", { supportEmail: "a@x.com,b@y.com" }, "supportEmail"],
    ["a support email that is no address", { supportEmail: "help" }, "supportEmail"],
    ["an empty legal name", { legalName: "  " }, "legalName"],
    ["a tax id over 50 characters", { taxId: "D".repeat(51) }, "taxId"],
    ["a switch that is not a boolean", { receiptEmails: "yes" }, "receiptEmails"],
    ["a legal name with a line break", { legalName: "Acme\nPay at https://evil.example" }, "legalName"],
    ["a legal name with a right-to-left override", { legalName: "Acme \u202elivE" }, "legalName"],
    ["a legal name with a directional isolate", { legalName: "\u2067Acme\u2069" }, "legalName"],
    ["a legal name with a right-to-left mark", { legalName: "Acme\u200f" }, "legalName"],
    ["a tax id with a tab", { taxId: "DE\t123" }, "taxId"],
    ["a tax id with a left-to-right embedding", { taxId: "\u202aDE123" }, "taxId"],
    ["a support email with a right-to-left override", { supportEmail: "help\u202e@x.com" }, "supportEmail"],
    ["a support email with a line break", { supportEmail: "help@x.com\nbcc@y.com" }, "supportEmail"],
    [
      "an address with a right-to-left override",
      { legalAddress: "Hauptstr. 1\n\u202e10115" },
      "legalAddress",
    ],
    ["an address with a control character", { legalAddress: "Hauptstr. 1\u0007" }, "legalAddress"],
  ])("refuses %s with a 400 naming the field, changing nothing", async (_case, body, field) => {
    const { auth, organization } = await createTestOrganization();
    const response = await callRoute(PUT, path, { method: "PUT", headers: auth, body });
    expect(response.status).toBe(400);
    expect(JSON.stringify(response.json)).toContain(field);
    const stored = await db().organization.findUniqueOrThrow({ where: { id: organization.id } });
    expect(stored).toMatchObject({ legalName: null, taxId: null, supportEmail: null, receiptEmails: true });
  });

  it.each(["legalName", "legalAddress", "taxId", "supportEmail", "receiptEmails"])(
    "refuses %s from a write agent credential (403 deciders_only), changing nothing",
    async (field) => {
      const { auth, organization } = await createTestOrganization();
      const agent = await createTestAgentCredential(organization.id, "write");
      const value =
        field === "receiptEmails" ? false : field === "supportEmail" ? "pay@evil.example" : "Evil";
      const before = (await callRoute(GET, path, { headers: auth })).json.data;
      const refused = await callRoute(PUT, path, {
        method: "PUT",
        headers: agent.auth,
        body: { name: "Renamed too", [field]: value },
      });
      expect([refused.status, refused.json.error?.code]).toEqual([403, "deciders_only"]);
      expect((await callRoute(GET, path, { headers: auth })).json.data).toEqual(before);
    },
  );

  it("emails every owner what changed of the receipts' details, through the outbox, and nothing for the receipt switch alone", async () => {
    const { auth, organization } = await createTestOrganization("Mail Store");
    const owners = await db().membership.findMany({
      where: { organizationId: organization.id, role: "OWNER" },
      select: { user: { select: { email: true } } },
    });
    const mails = () =>
      db().devEmail.findMany({
        where: {
          to: { in: owners.map((owner) => owner.user.email) },
          subject: { contains: "receipts changed" },
        },
      });
    const notices = () =>
      db().outboundEmail.findMany({ where: { organizationId: organization.id, kind: "owner_notice" } });
    const put = (body: unknown) => callRoute(PUT, path, { method: "PUT", headers: auth, body });
    expect((await put({ receiptEmails: false, name: "Mail Store" })).status).toBe(200);
    expect(await notices()).toEqual([]);
    expect(
      (await put({ supportEmail: "help@mail.example", legalAddress: "Hauptstr. 1\n10115 Berlin" })).status,
    ).toBe(200);
    // Sent after the answer, not before it: the outbox marks each row sent.
    await vi.waitFor(
      async () => expect((await notices()).map((row) => row.sentAt !== null)).toEqual(owners.map(() => true)),
      { timeout: 15_000, interval: 100 },
    );
    const sent = await mails();
    expect(sent.map((mail) => mail.to).sort()).toEqual(owners.map((owner) => owner.user.email).sort());
    expect(sent[0].subject).toBe("The details on Mail Store's receipts changed");
    expect(sent[0].text).toContain("Support email: (none) → help@mail.example");
    expect(sent[0].text).toContain("Address: (none) → Hauptstr. 1, 10115 Berlin");
    expect(sent[0].text).not.toContain("Legal name");
    // The same values again change nothing, and tell nobody.
    expect((await put({ supportEmail: "help@mail.example" })).status).toBe(200);
    expect(await notices()).toHaveLength(owners.length);
    expect(await mails()).toHaveLength(owners.length);
  });

  it("announces two changes of a detail made at once as the values the row went through", async () => {
    const { organization } = await createTestOrganization();
    await db().organization.update({ where: { id: organization.id }, data: { legalName: "Acme GmbH" } });
    // On PostgreSQL the first change holds its transaction open until the second waits on the row,
    // so both run at once for sure; the embedded database runs one transaction at a time anyway.
    let firstWrote!: () => void;
    const written = new Promise<void>((resolve) => {
      firstWrote = resolve;
    });
    const overlapping = inject("testDatabase").mode === "server";
    await Promise.all([
      updateOrganization(db(), organization.id, { legalName: "Beta GmbH" }, (work) =>
        db().$transaction(async (tx) => {
          await work(tx);
          firstWrote();
          if (overlapping) await untilAStatementWaitsOnALock();
        }),
      ),
      (overlapping ? written : Promise.resolve()).then(() =>
        updateOrganization(db(), organization.id, { legalName: "Gamma GmbH" }),
      ),
    ]);
    const { legalName: last } = await db().organization.findUniqueOrThrow({ where: { id: organization.id } });
    const between = last === "Gamma GmbH" ? "Beta GmbH" : "Gamma GmbH";
    const notices = await db().outboundEmail.findMany({
      where: { organizationId: organization.id, kind: "owner_notice" },
    });
    const changes = notices.map((notice) =>
      notice.text.split("\n").find((line) => line.startsWith("Legal name")),
    );
    expect(changes.sort()).toEqual(
      [`Legal name: Acme GmbH → ${between}`, `Legal name: ${between} → ${last}`].sort(),
    );
  });

  it("records no owners' email when the transaction that changed the details rolls back", async () => {
    const { organization } = await createTestOrganization();
    // As lib/settlement/update-organization-and-wallets.ts does: the settings are written in a
    // transaction that goes on, and here fails, after them.
    const refusedLater = updateOrganization(
      db(),
      organization.id,
      { supportEmail: "help@rolled.example" },
      (work) =>
        db().$transaction(async (tx) => {
          await work(tx);
          throw new Error("refused after the settings");
        }),
    );
    await expect(refusedLater).rejects.toThrow("refused after the settings");
    expect(await db().organization.findUniqueOrThrow({ where: { id: organization.id } })).toMatchObject({
      supportEmail: null,
    });
    expect(
      await db().outboundEmail.count({ where: { organizationId: organization.id, kind: "owner_notice" } }),
    ).toBe(0);
  });

  it("updates name and the default webhook URL at once; settlement wallets (checksummed) after the delay", async () => {
    const { auth, organization } = await createTestOrganization();
    const response = await callRoute(PUT, path, {
      method: "PUT",
      headers: auth,
      body: {
        name: "Renamed Store",
        settlementWallets: [
          { network: "base", address: address.toLowerCase() },
          { network: "devnet", address },
        ],
        webhookUrl: "https://shop.example/webhooks",
      },
    });
    expect(response.status).toBe(200);
    // An API key's wallets wait out SERVICE_SETTLEMENT_CHANGE_DELAY (24 h with DATABASE_URL), first
    // ones too: owners are emailed and may cancel them before any payment goes there.
    const pending = response.json.data.pendingSettlementWallets;
    expect(response.json.data).toEqual({
      id: organization.id,
      object: "organization",
      name: "Renamed Store",
      webhookUrl: "https://shop.example/webhooks",
      settlementWallets: [],
      pendingSettlementWallets: [
        {
          id: pending[0].id,
          network: "base",
          address,
          status: "scheduled",
          proposedBy: { kind: "api_key", name: expect.any(String) },
          proposedAt: expect.any(String),
          effectiveAt: expect.any(String),
        },
        expect.objectContaining({ network: "devnet", address, status: "scheduled" }),
      ],
      apiVersion: "2026-11-26",
      subscriptionGraceDays: 3,
      refundAgentDailyCapUsd: "100.00",
      autoRefundOverpayments: false,
      monthlyReportEmail: false,
      monthlyReportTo: null,
      branding: { displayName: null, color: null, logoUrl: null },
      merchantDetails: { legalName: null, address: null, taxId: null, supportEmail: null },
      receiptEmails: true,
      createdAt: organization.createdAt.toISOString(),
    });
    expect((await callRoute(GET, path, { headers: auth })).json.data).toEqual(response.json.data);
    const effectiveAt = Date.parse(pending[0].effectiveAt);
    expect(effectiveAt - Date.now()).toBeGreaterThan(23.9 * 3600_000);

    // Once due, they are in force.
    await applyDueSettlementChanges(db(), new Date(effectiveAt));
    expect((await callRoute(GET, path, { headers: auth })).json.data).toMatchObject({
      settlementWallets: [
        { network: "base", address },
        { network: "devnet", address },
      ],
      pendingSettlementWallets: [],
    });

    const cleared = await callRoute(PUT, path, {
      method: "PUT",
      headers: auth,
      body: { webhookUrl: null, settlementWallets: [] },
    });
    // Removing wallets in force waits out the delay too: sweeps go on to them meanwhile.
    expect(cleared.json.data).toMatchObject({
      name: "Renamed Store",
      webhookUrl: null,
      settlementWallets: [
        { network: "base", address },
        { network: "devnet", address },
      ],
      pendingSettlementWallets: [
        { network: "base", address: null, status: "scheduled", proposedBy: { kind: "api_key" } },
        { network: "devnet", address: null, status: "scheduled", proposedBy: { kind: "api_key" } },
      ],
    });
  });

  it("sets the subscription grace period (0 to 30 days) and reads it back", async () => {
    const { auth, organization } = await createTestOrganization();
    for (const days of [0, 30, 7]) {
      const response = await callRoute(PUT, path, {
        method: "PUT",
        headers: auth,
        body: { subscriptionGraceDays: days },
      });
      expect(response.status).toBe(200);
      expect(response.json.data.subscriptionGraceDays).toBe(days);
    }
    expect((await callRoute(GET, path, { headers: auth })).json.data.subscriptionGraceDays).toBe(7);
    const stored = await db().organization.findUniqueOrThrow({ where: { id: organization.id } });
    expect(stored.subscriptionGraceDays).toBe(7);
  });

  it("sets the refund settings with an API key, and refuses an agent credential changing them", async () => {
    const { auth, organization } = await createTestOrganization();
    const response = await callRoute(PUT, path, {
      method: "PUT",
      headers: auth,
      body: { refundAgentDailyCapUsd: "250.5", autoRefundOverpayments: true },
    });
    expect(response.status).toBe(200);
    expect(response.json.data).toMatchObject({
      refundAgentDailyCapUsd: "250.50",
      autoRefundOverpayments: true,
    });
    const agent = await createTestAgentCredential(organization.id, "write");
    for (const body of [{ refundAgentDailyCapUsd: "100000" }, { autoRefundOverpayments: false }]) {
      const refused = await callRoute(PUT, path, { method: "PUT", headers: agent.auth, body });
      expect(refused.status).toBe(403);
      expect(refused.json.error.code).toBe("owner_only");
    }
    const stored = await db().organization.findUniqueOrThrow({ where: { id: organization.id } });
    expect([stored.refundAgentDailyCapUsd.toString(), stored.autoRefundOverpayments]).toEqual([
      "250.5",
      true,
    ]);
    const renamed = await callRoute(PUT, path, {
      method: "PUT",
      headers: agent.auth,
      body: { name: "Agent-renamed" },
    });
    expect(renamed.status).toBe(200);
  });

  it("sets the monthly report email with an API key, to an owner only; refuses an agent credential", async () => {
    const { auth, organization } = await createTestOrganization();
    const owner = await db().membership.findFirstOrThrow({
      where: { organizationId: organization.id, role: "OWNER" },
      select: { user: { select: { email: true } } },
    });
    const put = (headers: Record<string, string>, body: unknown) =>
      callRoute(PUT, path, { method: "PUT", headers, body });
    const on = await put(auth, { monthlyReportEmail: true, monthlyReportTo: owner.user.email.toUpperCase() });
    expect(on.status).toBe(200);
    expect(on.json.data).toMatchObject({ monthlyReportEmail: true, monthlyReportTo: owner.user.email });
    const stranger = await put(auth, { monthlyReportTo: "someone@example.com", name: "Not renamed" });
    expect([stranger.status, stranger.json.error.code, stranger.json.error.param]).toEqual([
      400,
      "not_an_owner",
      "monthlyReportTo",
    ]);
    const agent = await createTestAgentCredential(organization.id, "write");
    for (const body of [{ monthlyReportEmail: false }, { monthlyReportTo: null }]) {
      const refused = await put(agent.auth, body);
      expect([refused.status, refused.json.error.code]).toEqual([403, "deciders_only"]);
    }
    expect((await callRoute(GET, path, { headers: auth })).json.data).toMatchObject({
      name: organization.name,
      monthlyReportEmail: true,
      monthlyReportTo: owner.user.email,
    });
    const everyOwner = await put(auth, { monthlyReportTo: "" });
    expect(everyOwner.json.data).toMatchObject({ monthlyReportEmail: true, monthlyReportTo: null });
  });

  it("a refused settlement wallet leaves the monthly report setting as it was", async () => {
    const { auth } = await createTestOrganization();
    const other = await createTestOrganization();
    const serviceWallet = "0x000000000000000000000000000000000000dEaD";
    await db().refundWallet.create({
      data: {
        organizationId: other.organization.id,
        network: "base",
        address: serviceWallet,
        coinBalance: "0",
        tokenBalances: {},
        queued: {},
        low: false,
        checkedAt: new Date(),
      },
    });
    const refused = await callRoute(PUT, path, {
      method: "PUT",
      headers: auth,
      body: { monthlyReportEmail: true, settlementWallets: [{ network: "base", address: serviceWallet }] },
    });
    expect([refused.status, refused.json.error.code]).toEqual([400, "address_is_service_wallet"]);
    expect((await callRoute(GET, path, { headers: auth })).json.data).toMatchObject({
      monthlyReportEmail: false,
      settlementWallets: [],
      pendingSettlementWallets: [],
    });
  });

  it.each<[string, unknown, string, string]>([
    [
      "an unknown network",
      { settlementWallets: [{ network: "tron", address }] },
      "parameter_invalid",
      "settlementWallets.0.network",
    ],
    [
      "a non-address",
      { settlementWallets: [{ network: "base", address: "0x123" }] },
      "parameter_invalid",
      "settlementWallets.0.address",
    ],
    [
      "a bad checksum",
      { settlementWallets: [{ network: "base", address: address.replace("E0F", "e0F") }] },
      "parameter_invalid",
      "settlementWallets.0.address",
    ],
    [
      "a network twice",
      {
        settlementWallets: [
          { network: "base", address },
          { network: "base", address },
        ],
      },
      "parameter_invalid",
      "settlementWallets",
    ],
    ["a non-URL webhook", { webhookUrl: "hooks" }, "parameter_invalid", "webhookUrl"],
    ["an empty name", { name: "" }, "parameter_invalid", "name"],
    ["an unknown field", { plan: "pro" }, "parameter_unknown", "plan"],
    ["negative grace days", { subscriptionGraceDays: -1 }, "parameter_invalid", "subscriptionGraceDays"],
    ["31 grace days", { subscriptionGraceDays: 31 }, "parameter_invalid", "subscriptionGraceDays"],
    ["fractional grace days", { subscriptionGraceDays: 1.5 }, "parameter_invalid", "subscriptionGraceDays"],
    ["grace days as text", { subscriptionGraceDays: "3" }, "parameter_invalid", "subscriptionGraceDays"],
    ["null grace days", { subscriptionGraceDays: null }, "parameter_invalid", "subscriptionGraceDays"],
    [
      "a negative refund cap",
      { refundAgentDailyCapUsd: "-1" },
      "parameter_invalid",
      "refundAgentDailyCapUsd",
    ],
    [
      "a refund cap in cents",
      { refundAgentDailyCapUsd: "1.005" },
      "parameter_invalid",
      "refundAgentDailyCapUsd",
    ],
    [
      "a refund cap as a number",
      { refundAgentDailyCapUsd: 100 },
      "parameter_invalid",
      "refundAgentDailyCapUsd",
    ],
    [
      "automatic refunds as text",
      { autoRefundOverpayments: "yes" },
      "parameter_invalid",
      "autoRefundOverpayments",
    ],
  ])("rejects %s and changes nothing", async (_case, body, code, param) => {
    const { auth } = await createTestOrganization();
    const before = (await callRoute(GET, path, { headers: auth })).json.data;
    const response = await callRoute(PUT, path, { method: "PUT", headers: auth, body });
    expect(response.status).toBe(400);
    expect(response.json.error).toMatchObject({ code, param });
    expect((await callRoute(GET, path, { headers: auth })).json.data).toEqual(before);
  });
});

/** Resolves once a statement of this test's database waits on a lock (the other change's row). */
async function untilAStatementWaitsOnALock() {
  for (let waited = 0; ; waited += 20) {
    const waiting = await db().$queryRaw<unknown[]>`
      SELECT 1 FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'`;
    if (waiting.length > 0) return;
    if (waited > 30_000) throw new Error("the second change never waited on the first");
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
