// Settings and a settlement wallet list sent together are all or nothing: whatever refuses the
// wallet change (or the settings) leaves the organization as it was.
process.env.SERVICE_DEV_MAILBOX = "true";

import { describe, expect, it } from "vitest";
import { GET, PUT } from "@/app/api/private/organization/current/route";
import { db } from "@/lib/db/client";
import { conflict, type ServiceError } from "@/lib/errors";
import { consumeRateLimit } from "@/lib/rate-limit/rate-limit";
import { callRoute } from "@/scripts/test-support/call-route";
import { createTestAgentCredential, createTestOrganization } from "@/scripts/test-support/fixtures";
import { updateOrganizationAndWallets } from "./update-organization-and-wallets";

const path = "/api/private/organization/current";
const wallet = "0x52908400098527886E0F7030069857D2E4169EE7"; // EIP-55 test vector
const serviceWallet = "0x000000000000000000000000000000000000dEaD";
const settings = { name: "Renamed", subscriptionGraceDays: 9, autoRefundOverpayments: true };

type Merchant = Awaited<ReturnType<typeof createTestOrganization>>;
type Refusal = { status: number; code: string };

const byRest = async (auth: Record<string, string>, body: unknown): Promise<Refusal> => {
  const response = await callRoute(PUT, path, { method: "PUT", headers: auth, body });
  return { status: response.status, code: response.json.error?.code };
};

describe("updateOrganizationAndWallets, refused", () => {
  it.each<[string, (merchant: Merchant) => Promise<Refusal>, Refusal]>([
    [
      "a wallet the service holds",
      async ({ auth }) => {
        const other = await createTestOrganization();
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
        return byRest(auth, {
          ...settings,
          settlementWallets: [{ network: "base", address: serviceWallet }],
        });
      },
      { status: 400, code: "address_is_service_wallet" },
    ],
    [
      "a read-only agent",
      async ({ organization }) => {
        const agent = await createTestAgentCredential(organization.id, "read");
        return byRest(agent.auth, { ...settings, settlementWallets: [{ network: "base", address: wallet }] });
      },
      { status: 403, code: "insufficient_access" },
    ],
    [
      "the hour's settlement changes spent",
      async ({ organization, auth }) => {
        for (let i = 0; i < 30; i++) await consumeRateLimit("settlementChange", organization.id);
        return byRest(auth, { ...settings, settlementWallets: [{ network: "base", address: wallet }] });
      },
      { status: 429, code: "rate_limited" },
    ],
    [
      "a monthly report recipient who is no owner",
      ({ auth }) =>
        byRest(auth, {
          ...settings,
          monthlyReportTo: "stranger@example.com",
          settlementWallets: [{ network: "base", address: wallet }],
        }),
      { status: 400, code: "not_an_owner" },
    ],
    [
      "a confirmation already used (the MCP tool's, committed with the change)",
      ({ organization }) =>
        updateOrganizationAndWallets(
          db(),
          organization.id,
          { ...settings, settlementWallets: [{ network: "base", address: wallet }] },
          () => ({
            decision: "allow",
            proposedBy: { kind: "owner", name: "owner@example.com" },
            clientAddress: null,
          }),
          async () => {
            throw conflict("confirmation_used", "This confirmation was already used.");
          },
        ).then(
          () => ({ status: 200, code: "" }),
          (error: ServiceError) => ({ status: error.status, code: error.code }),
        ),
      { status: 409, code: "confirmation_used" },
    ],
  ])("for %s: changes nothing", async (_case, send, refusal) => {
    const merchant = await createTestOrganization();
    const organizationId = merchant.organization.id;
    const before = await db().organization.findUniqueOrThrow({ where: { id: organizationId } });
    const shownBefore = (await callRoute(GET, path, { headers: merchant.auth })).json.data;
    expect(await send(merchant)).toEqual(refusal);
    expect(await db().organization.findUniqueOrThrow({ where: { id: organizationId } })).toEqual(before);
    expect((await callRoute(GET, path, { headers: merchant.auth })).json.data).toEqual(shownBefore);
    expect(await db().settlementChange.count({ where: { organizationId } })).toBe(0);
    expect(await db().settlementWallet.count({ where: { organizationId } })).toBe(0);
    expect(await db().outboundEmail.count({ where: { organizationId } })).toBe(0);
  });

  it("an agent's wallet list still waits for an owner, its other settings in force at once", async () => {
    const merchant = await createTestOrganization();
    const agent = await createTestAgentCredential(merchant.organization.id);
    const response = await callRoute(PUT, path, {
      method: "PUT",
      headers: agent.auth,
      body: {
        name: "Renamed",
        subscriptionGraceDays: 9,
        settlementWallets: [{ network: "base", address: wallet }],
      },
    });
    expect(response.status, response.text).toBe(200);
    expect(response.json.data).toMatchObject({
      name: "Renamed",
      subscriptionGraceDays: 9,
      settlementWallets: [],
      pendingSettlementWallets: [{ network: "base", address: wallet }],
    });
    expect(
      await db().settlementChange.findMany({
        where: { organizationId: merchant.organization.id },
        select: { status: true, address: true },
      }),
    ).toEqual([{ status: "PROPOSED", address: wallet }]);
  });
});
