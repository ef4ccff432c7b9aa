import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DELETE, GET, POST } from "@/app/mcp/route";
import { config } from "@/lib/config";
import { db } from "@/lib/db/client";
import { newId } from "@/lib/ids";
import { createRefund } from "@/lib/refunds/create-refund";
import { serializeRefund } from "@/lib/refunds/serialize-refund";
import { deliverDueWebhooks } from "@/lib/webhooks/deliver-due-webhooks";
import { appRoutes } from "@/scripts/test-support/app-routes";
import { createTestAgentCredential, createTestOrganization } from "@/scripts/test-support/fixtures";
import { oauthAccessToken } from "@/scripts/test-support/oauth";
import { createTestPaidInvoice } from "@/scripts/test-support/refund-fixtures";
import { serveApp, serveRoute } from "@/scripts/test-support/serve-route";
import { startWebhookReceiver } from "@/scripts/test-support/webhook-receiver";

// The authority walk (./authority-table.int.test.ts) for one capability: a refund's claim link
// pays whoever types an address into it. Each caller kind reads refunds through each door it has,
// over real HTTP, and the link's token must appear only where the rule says: the API key, for the
// links it asked for, and an owner in the dashboard. Agent credentials (read or write), OAuth tokens, MCP tools, members and
// webhook endpoints (even one a write agent created) never see it. Written out from the rule, not
// computed with lib/authority.

process.env.SERVICE_DEV_MAILBOX = "true";

const payer = "0x52908400098527886E0F7030069857D2E4169EE7";

type Caller = { name: string; authorization: string; seesClaimLinks: boolean };

let server: Awaited<ReturnType<typeof serveApp>>;
let mcp: Awaited<ReturnType<typeof serveRoute>>;
let receiver: Awaited<ReturnType<typeof startWebhookReceiver>>;
let organizationId: string;
let apiKey: string;
let writer: string;
const restCallers: Caller[] = [];
const mcpCallers: Caller[] = [];
/** The open claim link's token, as the API key was given it. */
let token: string;
let refundId: string;
let replayKey: string;
let claimBody: Record<string, unknown>;

async function call(authorization: string, method: string, path: string, body?: unknown, extra = {}) {
  const response = await fetch(`${server.url}${path}`, {
    method,
    headers: {
      authorization,
      ...(body === undefined ? {} : { "content-type": "application/json" }),
      ...extra,
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: response.status, text: await response.text() };
}

async function rpc(authorization: string, method: string, params: Record<string, unknown> = {}) {
  const response = await fetch(`${mcp.url}/mcp`, {
    method: "POST",
    headers: {
      authorization,
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
    },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params }),
  });
  return { status: response.status, text: await response.text() };
}

beforeAll(async () => {
  const { organization, auth } = await createTestOrganization("Claim Walk Store");
  organizationId = organization.id;
  apiKey = auth.authorization;
  const owner = await db().membership.findFirstOrThrow({ where: { organizationId, role: "OWNER" } });
  const memberUser = await db().user.create({
    data: { id: newId("user"), email: `claim-member-${Date.now()}@example.com` },
  });
  await db().membership.create({
    data: { id: newId("membership"), organizationId, userId: memberUser.id, role: "MEMBER" },
  });
  writer = (await createTestAgentCredential(organizationId, "write")).auth.authorization;
  const reader = (await createTestAgentCredential(organizationId, "read")).auth.authorization;
  restCallers.push(
    { name: "API key", authorization: apiKey, seesClaimLinks: true },
    { name: "agent (write)", authorization: writer, seesClaimLinks: false },
    { name: "agent (read)", authorization: reader, seesClaimLinks: false },
  );
  const oauth = await Promise.all(
    (
      [
        ["owner", owner.userId, "read write"],
        ["owner", owner.userId, "read"],
        ["member", memberUser.id, "read write"],
        ["member", memberUser.id, "read"],
      ] as const
    ).map(async ([role, userId, scope]) => ({
      name: `OAuth (${role}, ${scope})`,
      authorization: await oauthAccessToken(organizationId, userId, scope),
      seesClaimLinks: false,
    })),
  );
  // MCP tool results reach a model and its app: nobody sees a claim link there, not even the API key.
  mcpCallers.push(...restCallers.map((caller) => ({ ...caller, seesClaimLinks: false })), ...oauth);
  server = await serveApp(await appRoutes(), config().baseUrl);
  mcp = await serveRoute({ GET, POST, DELETE }, config().baseUrl);
  receiver = await startWebhookReceiver();

  // A write agent registers a webhook endpoint (it may: webhooks.manage), hoping for the links.
  const endpoint = await call(writer, "POST", "/api/private/organization/webhook-endpoints", {
    name: "Agent's endpoint",
    url: receiver.url,
    adapter: "NONE",
    enabled: true,
  });
  expect(endpoint.status).toBe(201);

  const invoice = await createTestPaidInvoice(organizationId, {
    amount: "40",
    payments: [{ amount: "40", fromAddress: payer }],
    customerEmail: "buyer@example.com",
  });
  replayKey = `claim-walk-${Date.now()}-${Math.random().toString(36).slice(2)}`;
  claimBody = { invoiceId: invoice.id, amount: "10", destination: "claim" };
  const created = await call(apiKey, "POST", "/api/private/refunds", claimBody, {
    "idempotency-key": replayKey,
  });
  expect(created.status).toBe(200);
  const data = JSON.parse(created.text).data;
  expect(data.claimUrl).toMatch(/\/refund\/[A-Za-z0-9_-]{43}$/);
  token = data.claimUrl.split("/").pop();
  refundId = data.id;
}, 60_000);

afterAll(async () => {
  await server?.close();
  await mcp?.close();
  await receiver?.close();
});

/** Whether the token is in `text`, as a name for the failure message. */
const verdict = (name: string, door: string, text: string) => ({
  name,
  door,
  seesToken: text.includes(token),
});

describe("claim links through every door", () => {
  it("REST: the API key reads the link; agent credentials never see its token", async () => {
    const doors = [
      ["GET", "/api/private/refunds"],
      ["GET", `/api/private/refunds/${refundId}`],
      ["GET", `/api/private/refunds?status=pending_claim`],
    ] as const;
    for (const caller of restCallers) {
      for (const [method, path] of doors) {
        const answer = await call(caller.authorization, method, path);
        expect(answer.status).toBe(200);
        expect(verdict(caller.name, path, answer.text)).toEqual({
          name: caller.name,
          door: path,
          seesToken: caller.seesClaimLinks,
        });
      }
    }
  });

  it("REST: a replay of the API key's Idempotency-Key gives the link to the key only", async () => {
    const byKey = await call(apiKey, "POST", "/api/private/refunds", claimBody, {
      "idempotency-key": replayKey,
    });
    expect(byKey.status).toBe(200);
    expect(JSON.parse(byKey.text).data).toMatchObject({
      id: refundId,
      claimUrl: expect.stringContaining(token),
    });
    const byAgent = await call(writer, "POST", "/api/private/refunds", claimBody, {
      "idempotency-key": replayKey,
    });
    expect(byAgent.status).toBe(200);
    expect(JSON.parse(byAgent.text).data.id).toBe(refundId);
    expect(byAgent.text).not.toContain(token);
    expect(JSON.parse(byAgent.text).data).not.toHaveProperty("claimUrl");
  });

  it("MCP: no caller's service_refunds_list or service_refunds_get carries the token", async () => {
    for (const caller of mcpCallers) {
      for (const [name, args] of [
        ["service_refunds_list", {}],
        ["service_refunds_list", { status: "pending_claim" }],
        ["service_refunds_get", { id: refundId }],
      ] as const) {
        const answer = await rpc(caller.authorization, "tools/call", { name, arguments: args });
        expect(answer.status).toBe(200);
        expect(answer.text).toContain(refundId);
        expect(verdict(caller.name, name, answer.text)).toEqual({
          name: caller.name,
          door: name,
          seesToken: false,
        });
      }
    }
  });

  it("webhooks: refund.created reaches the agent's endpoint without the link, and stored events hold none", async () => {
    await deliverDueWebhooks(db());
    const refundEvents = receiver.received.filter((request) => request.rawBody.includes('"refund.created"'));
    expect(refundEvents).toHaveLength(1);
    expect(refundEvents[0].rawBody).toContain(refundId);
    for (const request of receiver.received) expect(request.rawBody).not.toContain(token);
    const events = await db().event.findMany({ where: { organizationId } });
    expect(events.length).toBeGreaterThan(0);
    for (const event of events) {
      expect(JSON.stringify(event.payload)).not.toContain(token);
      // The event's deliveries as every credential reads them.
      for (const caller of restCallers) {
        const answer = await call(caller.authorization, "GET", `/api/private/events/${event.id}/deliveries`);
        expect(answer.text).not.toContain(token);
      }
    }
  });

  it("REST: a link an owner asked for, which pays at once when claimed, is not the API key's to read", async () => {
    const invoice = await createTestPaidInvoice(organizationId, {
      amount: "20",
      payments: [{ amount: "20", fromAddress: payer }],
    });
    const { refund } = await createRefund(db(), {
      organizationId,
      request: { invoiceId: invoice.id, amount: "5", destination: "claim" },
      requestedBy: { kind: "user", name: "owner@example.com", decision: "allow" },
      idempotency: null,
    });
    if (!refund) throw new Error("no refund");
    const ownersLink = serializeRefund(refund, { kind: "owner" }).claimUrl as string;
    expect(ownersLink).toMatch(/\/refund\/[A-Za-z0-9_-]{43}$/);
    const ownersToken = ownersLink.split("/").pop() as string;
    for (const path of [
      "/api/private/refunds",
      `/api/private/refunds/${refund.id}`,
      "/api/private/refunds?status=pending_claim",
    ]) {
      const answer = await call(apiKey, "GET", path);
      expect(answer.status).toBe(200);
      expect(answer.text).toContain(refund.id);
      expect({ path, seesToken: answer.text.includes(ownersToken) }).toEqual({ path, seesToken: false });
    }
  });

  it("dashboard: an owner's refund object has the link, a member's does not", async () => {
    const refund = await db().refund.findFirstOrThrow({ where: { id: refundId, organizationId } });
    expect(serializeRefund(refund, { kind: "owner" }).claimUrl).toContain(token);
    expect(JSON.stringify(serializeRefund(refund, { kind: "member" }))).not.toContain(token);
    expect(JSON.stringify(serializeRefund(refund, null))).not.toContain(token);
  });
});
