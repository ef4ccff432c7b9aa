import { getAddress } from "viem";
import { describe, expect, it } from "vitest";
import { POST as createRoute } from "@/app/api/private/refunds/route";
import { devnetNetwork } from "@/lib/chains/devnet";
import { db } from "@/lib/db/client";
import { newId } from "@/lib/ids";
import { updateInvoiceFromPayments } from "@/lib/payments/update-invoice-from-payments";
import { callRoute } from "@/scripts/test-support/call-route";
import { createTestAgentCredential, createTestOrganization } from "@/scripts/test-support/fixtures";
import { createTestPaidInvoice } from "@/scripts/test-support/refund-fixtures";
import { cancelRefund } from "./cancel-refund";
import { hashClaimToken } from "./claim-token";
import { createRefund } from "./create-refund";
import { decideRefund } from "./decide-refund";
import { refundRequester } from "./refund-requester";
import { resendClaimLink } from "./resend-claim-link";
import { serializeRefund } from "./serialize-refund";

// Proposals are emailed to owners and claim links to buyers through the development mailbox.
process.env.SERVICE_DEV_MAILBOX = "true";
process.env.SERVICE_HD_MNEMONIC = "test test test test test test test test test test test junk";
process.env.SERVICE_NETWORKS = JSON.stringify([
  devnetNetwork({
    rpcUrl: "http://127.0.0.1:1",
    usdc: "0x5FbDB2315678afecb367f032d93F642f64180aa3",
    confirmations: 1,
  }),
]);

const payer = getAddress("0x52908400098527886e0f7030069857d2e4169ee7");
const named = getAddress("0xde709f2102306220921060314715629080e2fb77");

async function store(invoiceAmount = "400") {
  const { organization, auth } = await createTestOrganization();
  const owner = await db().membership.findFirstOrThrow({
    where: { organizationId: organization.id, role: "OWNER" },
    include: { user: true },
  });
  const invoice = await createTestPaidInvoice(organization.id, {
    amount: invoiceAmount,
    payments: [{ amount: invoiceAmount, fromAddress: payer }],
    customerEmail: "buyer@example.com",
  });
  return { organization, auth, owner, invoice };
}

const ownerInbox = (email: string) =>
  db().devEmail.findMany({ where: { to: email }, orderBy: { createdAt: "asc" } });

function post(auth: Record<string, string>, body: unknown) {
  return callRoute(createRoute, "/api/private/refunds", { headers: auth, body });
}

describe("agents' refunds: the daily cap and owner proposals", () => {
  it("lets an agent credential refund the payer within the cap, and turns the rest into proposals", async () => {
    const { organization, owner, invoice } = await store();
    const agent = await createTestAgentCredential(organization.id, "write");
    const within = await post(agent.auth, { invoiceId: invoice.id, amount: "60", destination: "payer" });
    expect(within.status).toBe(200);
    expect(within.json.data.status).toBe("pending");
    const exactly = await post(agent.auth, { invoiceId: invoice.id, amount: "40", destination: "payer" });
    expect(exactly.json.data.status).toBe("pending");
    expect(await ownerInbox(owner.user.email)).toHaveLength(0);

    const cases = [
      ["over the cap", { amount: "0.01", destination: "payer" }],
      ["a claim link", { amount: "1", destination: "claim" }],
      ["an address it names", { amount: "1", destination: named }],
    ] as const;
    for (const [name, fields] of cases) {
      const proposal = await post(agent.auth, { invoiceId: invoice.id, ...fields });
      expect(proposal.status, name).toBe(200);
      expect(proposal.json.data, name).toMatchObject({ status: "requires_approval", txHash: null });
      // An agent credential never sees a claim link field, open or not.
      expect(proposal.json.data, name).not.toHaveProperty("claimUrl");
    }
    const emails = await ownerInbox(owner.user.email);
    expect(emails).toHaveLength(3);
    for (const email of emails) {
      expect(email.subject).toMatch(/^Confirm or reject: refund of/);
      expect(email.text).toMatch(/\/dashboard\/refunds\/rfd_/);
      expect(email.text).toContain("Test agent (an agent credential)");
    }
    // Whoever created the checkout set the buyer's email the link goes to: the owner sees which.
    expect(
      emails.filter((email) => email.text.includes("a claim link sent to buyer@example.com")),
    ).toHaveLength(1);
    const rows = await db().refund.findMany({
      where: { organizationId: organization.id },
      orderBy: { createdAt: "asc" },
    });
    expect(rows.map((row) => [row.requestedByKind, row.status])).toEqual([
      ["agent_credential", "PENDING"],
      ["agent_credential", "PENDING"],
      ["agent_credential", "REQUIRES_APPROVAL"],
      ["agent_credential", "REQUIRES_APPROVAL"],
      ["agent_credential", "REQUIRES_APPROVAL"],
    ]);
  });

  it("frees the cap of a failed refund, follows the organization's setting and leaves API keys uncapped", async () => {
    const { organization, auth, invoice } = await store();
    const agent = await createTestAgentCredential(organization.id, "write");
    const first = await post(agent.auth, { invoiceId: invoice.id, amount: "100", destination: "payer" });
    expect(first.json.data.status).toBe("pending");
    await db().refund.update({ where: { id: first.json.data.id }, data: { status: "FAILED" } });
    const again = await post(agent.auth, { invoiceId: invoice.id, amount: "100", destination: "payer" });
    expect(again.json.data.status).toBe("pending");
    await db().organization.update({
      where: { id: organization.id },
      data: { refundAgentDailyCapUsd: "150" },
    });
    const raised = await post(agent.auth, { invoiceId: invoice.id, amount: "50", destination: "payer" });
    expect(raised.json.data.status).toBe("pending");
    const byKey = await post(auth, { invoiceId: invoice.id, amount: "150", destination: "payer" });
    expect(byKey.json.data.status).toBe("pending");
  });

  it("counts sub-cent refunds at their exact value, not rounded to $0.00", async () => {
    const { organization, invoice } = await store();
    await db().organization.update({
      where: { id: organization.id },
      data: { refundAgentDailyCapUsd: "0.01" },
    });
    const agent = await createTestAgentCredential(organization.id, "write");
    const statuses: string[] = [];
    for (let i = 0; i < 3; i++) {
      const refund = await post(agent.auth, { invoiceId: invoice.id, amount: "0.004", destination: "payer" });
      statuses.push(refund.json.data.status);
    }
    // 0.004 + 0.004 fit under 0.01 USD; a third would make 0.012.
    expect(statuses).toEqual(["pending", "pending", "requires_approval"]);
    const rows = await db().refund.findMany({ where: { organizationId: organization.id } });
    expect(rows.map((row) => row.amountUsd.toString())).toEqual(["0.004", "0.004", "0.004"]);
  });

  it("counts only today's (UTC) refunds against the cap", async () => {
    const { organization, invoice } = await store();
    const agent = await createTestAgentCredential(organization.id, "write");
    const yesterday = await post(agent.auth, { invoiceId: invoice.id, amount: "100", destination: "payer" });
    await db().refund.update({
      where: { id: yesterday.json.data.id },
      data: { createdAt: new Date(Date.now() - 86_400_000) },
    });
    const today = await post(agent.auth, { invoiceId: invoice.id, amount: "100", destination: "payer" });
    expect(today.json.data.status).toBe("pending");
  });

  it("holds an OAuth token to the same cap and proposals", async () => {
    const { organization, owner, invoice } = await store();
    const requestedBy = refundRequester({
      credential: { kind: "oauth", id: newId("oauthToken") },
      access: "write",
      role: "owner",
      name: "Claude",
    });
    const create = (amount: string, destination: string) =>
      createRefund(db(), {
        organizationId: organization.id,
        request: { invoiceId: invoice.id, amount, destination },
        requestedBy,
        idempotency: null,
        reader: null,
      });
    expect((await create("100", "payer")).refund?.status).toBe("PENDING");
    expect((await create("1", "payer")).refund?.status).toBe("REQUIRES_APPROVAL");
    expect((await create("1", "claim")).refund?.status).toBe("REQUIRES_APPROVAL");
    const emails = await ownerInbox(owner.user.email);
    expect(emails).toHaveLength(2);
    expect(emails[0].text).toContain("Claude (an app connected with OAuth)");
    const kinds = await db().refund.findMany({
      where: { organizationId: organization.id },
      select: { requestedByKind: true },
    });
    expect(new Set(kinds.map((row) => row.requestedByKind))).toEqual(new Set(["oauth_token"]));
  });
});

describe("refunds to an address nobody has proven", () => {
  it.each([
    // [who asks, destination, status]: only a person in the dashboard names an address alone.
    ["api_key", "payer", "PENDING"],
    ["api_key", named, "REQUIRES_APPROVAL"],
    ["user", named, "PENDING"],
    ["agent_credential", named, "REQUIRES_APPROVAL"],
  ] as const)("%s to %s: %s", async (kind, destination, status) => {
    const { organization, invoice } = await store();
    const { refund } = await createRefund(db(), {
      organizationId: organization.id,
      request: { invoiceId: invoice.id, amount: "5", destination },
      requestedBy: { kind, name: "asker", decision: kind === "agent_credential" ? "propose" : "allow" },
      idempotency: null,
    });
    expect(refund?.status).toBe(status);
  });

  it("an API key's refund to an address it names waits for an owner, who is emailed", async () => {
    const { organization, auth, owner, invoice } = await store();
    const response = await post(auth, { invoiceId: invoice.id, amount: "25", destination: named });
    expect(response.status).toBe(200);
    expect(response.json.data).toMatchObject({ status: "requires_approval", destination: "address" });
    const [mail] = await ownerInbox(owner.user.email);
    expect(mail.subject).toMatch(/^Confirm or reject: refund of 25 USDC/);
    expect(mail.text).toContain(`an address the requester named, ${named}`);
    expect(mail.text).toContain("(an API key)");
    expect(mail.text).toContain(`/dashboard/refunds/${response.json.data.id}`);
    const confirmed = await decideRefund(db(), organization.id, {
      id: response.json.data.id,
      userId: owner.userId,
      decision: "confirm",
    });
    expect(confirmed).toMatchObject({ status: "PENDING", toAddress: named, decidedByUserId: owner.userId });
  });
});

describe("an owner's decision, cancelling and re-sending", () => {
  async function proposal(destination: string) {
    const context = await store();
    const agent = await createTestAgentCredential(context.organization.id, "write");
    const response = await post(agent.auth, { invoiceId: context.invoice.id, amount: "10", destination });
    return { ...context, id: response.json.data.id as string };
  }

  it("confirms a proposed claim refund: the link opens and is emailed to the buyer", async () => {
    const { organization, owner, id } = await proposal("claim");
    const refund = await decideRefund(db(), organization.id, {
      id,
      userId: owner.userId,
      decision: "confirm",
    });
    expect(refund).toMatchObject({ status: "PENDING_CLAIM", decidedByUserId: owner.userId });
    expect(refund.claimTokenHash).toMatch(/^[0-9a-f]{64}$/);
    const { claimUrl } = serializeRefund(refund, { kind: "owner" });
    expect(claimUrl).toMatch(/\/refund\//);
    expect(
      await db().devEmail.count({ where: { to: "buyer@example.com", text: { contains: claimUrl ?? "-" } } }),
    ).toBe(1);
  });

  it("confirms a proposed refund to a named address for the signer, and rejects another with refund.failed", async () => {
    const { organization, owner, id, invoice } = await proposal(named);
    const confirmed = await decideRefund(db(), organization.id, {
      id,
      userId: owner.userId,
      decision: "confirm",
    });
    expect(confirmed).toMatchObject({ status: "PENDING", toAddress: named, claimTokenHash: null });
    const agent = await createTestAgentCredential(organization.id, "write");
    const second = await post(agent.auth, { invoiceId: invoice.id, amount: "10", destination: "claim" });
    const rejected = await decideRefund(db(), organization.id, {
      id: second.json.data.id,
      userId: owner.userId,
      decision: "reject",
    });
    expect(rejected).toMatchObject({ status: "FAILED", failureReason: "rejected by an owner" });
    const failed = await db().event.findMany({
      where: { organizationId: organization.id, type: "refund.failed" },
    });
    expect(failed.map((event) => (event.payload as { refund: { id: string } }).refund.id)).toEqual([
      rejected.id,
    ]);
  });

  it.each([
    ["a decided refund", "confirm" as const, "refund_state", 409],
    ["another organization's refund", "other" as const, "resource_missing", 404],
  ])("refuses to decide %s", async (_name, kind, code, status) => {
    const { organization, owner, id } = await proposal("claim");
    await decideRefund(db(), organization.id, { id, userId: owner.userId, decision: "confirm" });
    const other = await createTestOrganization("Other");
    const organizationId = kind === "other" ? other.organization.id : organization.id;
    await expect(
      decideRefund(db(), organizationId, { id, userId: owner.userId, decision: "reject" }),
    ).rejects.toMatchObject({
      code,
      status,
    });
  });

  it("cancels an open claim link and a pending refund, recording refund.failed; never one being sent", async () => {
    const { organization, auth, invoice } = await store();
    const claim = await post(auth, { invoiceId: invoice.id, amount: "10", destination: "claim" });
    const cancelled = await cancelRefund(db(), organization.id, claim.json.data.id);
    expect(cancelled).toMatchObject({
      status: "FAILED",
      failureReason: "cancelled by the merchant",
    });
    const pending = await post(auth, { invoiceId: invoice.id, amount: "10", destination: "payer" });
    expect((await cancelRefund(db(), organization.id, pending.json.data.id)).status).toBe("FAILED");
    const signed = await post(auth, { invoiceId: invoice.id, amount: "10", destination: "payer" });
    await db().signedTransaction.create({
      data: {
        id: newId("signedTransaction"),
        refundId: signed.json.data.id,
        kind: "TRANSFER",
        signer: payer,
        nonce: 0,
        hash: `0x${"ab".repeat(32)}`,
        raw: "0x02",
        maxFeePerGas: "1",
      },
    });
    await expect(cancelRefund(db(), organization.id, signed.json.data.id)).rejects.toMatchObject({
      code: "refund_state",
    });
    await db().refund.update({ where: { id: signed.json.data.id }, data: { status: "SUBMITTED" } });
    await expect(cancelRefund(db(), organization.id, signed.json.data.id)).rejects.toMatchObject({
      code: "refund_state",
    });
    const failed = await db().event.count({
      where: { organizationId: organization.id, type: "refund.failed" },
    });
    expect(failed).toBe(2);
  });

  it("re-sends a claim link with a new expiry: a new token, the old one retired, emailed again", async () => {
    const { organization, auth, invoice } = await store();
    const claim = await post(auth, { invoiceId: invoice.id, amount: "10", destination: "claim" });
    const before = await db().refund.findUniqueOrThrow({ where: { id: claim.json.data.id } });
    const later = new Date(Date.now() + 60_000);
    const resent = await resendClaimLink(db(), organization.id, before.id, later);
    expect(resent.claimExpiresAt?.getTime()).toBe(later.getTime() + 30 * 86_400_000);
    expect(resent.claimTokenHash).not.toBe(before.claimTokenHash);
    const oldToken = claim.json.data.claimUrl.split("/").pop();
    expect(await db().refund.count({ where: { claimTokenHash: hashClaimToken(oldToken) } })).toBe(0);
    const emails = await db().devEmail.findMany({
      where: { to: "buyer@example.com", text: { contains: "/refund/" } },
    });
    expect(emails.filter((email) => email.text.includes(claim.json.data.claimUrl))).toHaveLength(1);
    const payerRefund = await post(auth, { invoiceId: invoice.id, amount: "1", destination: "payer" });
    await expect(resendClaimLink(db(), organization.id, payerRefund.json.data.id)).rejects.toMatchObject({
      code: "refund_state",
    });
  });
});

describe("automatic overpayment refunds", () => {
  async function overpaid(
    autoRefundOverpayments: boolean,
    fromAddress: string | null,
    invoiceAmounts: { amount: string; amountUsd: string; paid: string } = {
      amount: "40",
      amountUsd: "40",
      paid: "45.5",
    },
  ) {
    const { amount, amountUsd, paid } = invoiceAmounts;
    const { organization } = await createTestOrganization();
    await db().organization.update({ where: { id: organization.id }, data: { autoRefundOverpayments } });
    const invoice = await createTestPaidInvoice(organization.id, {
      amount,
      amountUsd,
      payments: [{ amount: paid, fromAddress, status: "CONFIRMING" }],
    });
    await db().invoice.update({
      where: { id: invoice.id },
      data: { status: "CONFIRMING", deadline: new Date(Date.now() + 3_600_000) },
    });
    await db().payment.updateMany({ where: { invoiceId: invoice.id }, data: { status: "CONFIRMED" } });
    await db().$transaction((tx) => updateInvoiceFromPayments(tx, invoice.id, new Date()));
    return db().refund.findMany({ where: { invoiceId: invoice.id } });
  }

  it("refunds the overpaid part to the payer when the organization asks for it", async () => {
    const [refund, ...more] = await overpaid(true, payer);
    expect(more).toHaveLength(0);
    expect(refund).toMatchObject({
      status: "PENDING",
      destination: "PAYER",
      toAddress: payer,
      requestedByKind: "automatic",
    });
    expect(refund.amount.toString()).toBe("5.5");
  });

  it.each([
    ["the setting is off", false, payer],
    ["the payer is unknown", true, null],
  ])("refunds nothing when %s", async (_name, setting, fromAddress) => {
    expect(await overpaid(setting, fromAddress)).toEqual([]);
  });

  // SERVICE_AUTO_REFUND_MIN_USD (default 1), valued at the invoice's locked rate, not in tokens:
  // the case → the refund made automatically (none: left to the merchant, as with the setting off),
  // for the invoice (amount, its USD price) and what was paid.
  const floor: [string, string | null, { amount: string; amountUsd: string; paid: string }][] = [
    ["below the floor: $0.99 over", null, { amount: "40", amountUsd: "40", paid: "40.99" }],
    ["at the floor: $1.00 over", "1", { amount: "40", amountUsd: "40", paid: "41" }],
    [
      "below the floor in USD, though more in tokens",
      null,
      { amount: "0.02", amountUsd: "80", paid: "0.0202" },
    ],
    [
      "at the floor in USD, a fraction of a token",
      "0.00025",
      { amount: "0.02", amountUsd: "80", paid: "0.02025" },
    ],
  ];
  it.each(floor)("overpaid %s → refund %s", async (_name, expected, invoice) => {
    const refunds = await overpaid(true, payer, invoice);
    expect(refunds.map((refund) => refund.amount.toString())).toEqual(expected ? [expected] : []);
  });
});
