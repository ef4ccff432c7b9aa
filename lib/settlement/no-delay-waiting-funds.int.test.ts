// The zero-setup start's setting: no delay for settlement changes.
process.env.SERVICE_SETTLEMENT_CHANGE_DELAY = "0";
process.env.SERVICE_DEV_MAILBOX = "true";

import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GET, PUT } from "@/app/api/private/organization/current/route";
import { config } from "@/lib/config";
import { db } from "@/lib/db/client";
import { newId, randomBase62 } from "@/lib/ids";
import { createTestInvoice, createTestOrganization } from "@/scripts/test-support/fixtures";
import { serveRoute } from "@/scripts/test-support/serve-route";
import { confirmSettlementChange } from "./confirm-settlement-change";
import { type ProposedBy, requestSettlementChange } from "./request-settlement-change";

// With no delay, "after the delay" is at once: a credential's change would be in force before any
// owner heard of it, so it becomes a proposal an owner confirms instead.
let app: Awaited<ReturnType<typeof serveRoute>>;
beforeAll(async () => {
  app = await serveRoute({ GET, PUT }, config().baseUrl);
});
afterAll(async () => app?.close());

const wallet = "0x52908400098527886E0F7030069857D2E4169EE7";
const previous = "0x8617E340B3D01FA5F11F306F4090FD50E238070D";

/** An organization whose devnet invoice holds a confirmed payment no sweep took (or none). */
async function organizationWith(waiting: "confirmed" | "confirming" | "swept" | "none") {
  const org = await createTestOrganization();
  if (waiting === "none") return org;
  const invoice = await createTestInvoice(org.organization.id, { amount: "10", status: "CONFIRMED" });
  await db().payment.create({
    data: {
      id: newId("payment"),
      organizationId: org.organization.id,
      invoiceId: invoice.id,
      txHash: `0x${randomBase62(32).toLowerCase()}`,
      logIndex: 0,
      amount: "10",
      blockNumber: 1n,
      blockHash: "0x01",
      status: waiting === "confirming" ? "CONFIRMING" : "CONFIRMED",
    },
  });
  if (waiting === "swept")
    await db().sweep.create({
      data: {
        id: newId("sweep"),
        organizationId: org.organization.id,
        invoiceId: invoice.id,
        network: "devnet",
        token: "USDC",
        strategy: "GAS_TOP_UP",
        status: "CONFIRMED",
        fromAddress: invoice.depositAddress,
        toAddress: previous,
        amount: "10",
      },
    });
  return org;
}

const asked = (kind: ProposedBy["kind"]) => ({ kind, name: `a ${kind}` });

describe("settlement changes with no delay configured", () => {
  it.each([
    // [who asks, what waits on the network, wallet in force before, resulting status]
    // A credential's change is never in force before an owner heard of it: with no delay, an
    // owner confirms it, whatever waits.
    ["api_key", "confirmed", null, "PROPOSED"],
    ["api_key", "confirming", null, "PROPOSED"],
    ["api_key", "confirmed", previous, "PROPOSED"],
    ["api_key", "swept", null, "PROPOSED"],
    ["api_key", "none", null, "PROPOSED"],
    ["api_key", "none", previous, "PROPOSED"],
    ["agent", "none", null, "PROPOSED"],
    ["oauth", "none", null, "PROPOSED"],
    // An owner decides: with no delay, at once.
    ["owner", "confirmed", null, "APPLIED"],
    ["owner", "confirmed", previous, "APPLIED"],
    ["owner", "none", null, "APPLIED"],
  ] as const)("%s with %s funds, wallet in force %s: %s", async (kind, waiting, inForce, status) => {
    const { organization } = await organizationWith(waiting);
    if (inForce)
      await db().settlementWallet.create({
        data: {
          id: newId("settlementWallet"),
          organizationId: organization.id,
          network: "devnet",
          address: inForce,
        },
      });
    const [change] = await requestSettlementChange(db(), organization.id, {
      wallets: [{ network: "devnet", address: wallet }],
      decision: "allow",
      proposedBy: asked(kind),
      clientAddress: null,
    });
    expect(change.status).toBe(status);
    const inForceNow = await db().settlementWallet.findFirst({ where: { organizationId: organization.id } });
    expect(inForceNow?.address ?? null).toBe(status === "APPLIED" ? wallet : inForce);
  });

  it("an API key over HTTP proposes, every owner is asked, and an owner's confirmation puts it in force", async () => {
    const { organization, auth } = await organizationWith("confirmed");
    const answer = await fetch(`${app.url}/api/private/organization/current`, {
      method: "PUT",
      headers: { ...auth, "content-type": "application/json" },
      body: JSON.stringify({ settlementWallets: [{ network: "devnet", address: wallet }] }),
    });
    expect(answer.status).toBe(200);
    const body = await answer.json();
    expect(body.data.settlementWallets).toEqual([]);
    expect(body.data.pendingSettlementWallets).toMatchObject([{ address: wallet, status: "proposed" }]);
    const owner = await db().membership.findFirstOrThrow({
      where: { organizationId: organization.id, role: "OWNER" },
      include: { user: true },
    });
    const [mail] = await db().devEmail.findMany({ where: { to: owner.user.email } });
    expect(mail.subject).toMatch(/^Confirm or reject: settlement wallet change on devnet/);

    const change = await db().settlementChange.findFirstOrThrow({
      where: { organizationId: organization.id },
    });
    const confirmed = await confirmSettlementChange(db(), organization.id, {
      id: change.id,
      userId: owner.userId,
    });
    expect(confirmed.status).toBe("APPLIED");
    expect(
      await db().settlementWallet.findFirst({ where: { organizationId: organization.id } }),
    ).toMatchObject({
      address: wallet,
    });
  });
});
