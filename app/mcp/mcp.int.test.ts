import { execFileSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { SUPPORTED_PROTOCOL_VERSIONS } from "@modelcontextprotocol/sdk/types.js";
import { toolsFor } from "crypto-checkout-agent/catalog";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { config } from "@/lib/config";
import { db } from "@/lib/db/client";
import { callRoute } from "@/scripts/test-support/call-route";
import {
  createTestAgentCredential,
  createTestInvoice,
  createTestOrganization,
  createTestSweep,
  setTestSettlementWallets,
} from "@/scripts/test-support/fixtures";
import { createTestPaidInvoice } from "@/scripts/test-support/refund-fixtures";
import { serveRoute } from "@/scripts/test-support/serve-route";
import { createTestSubscription } from "@/scripts/test-support/subscription-fixtures";
import { startWebhookReceiver } from "@/scripts/test-support/webhook-receiver";
import { DELETE, GET, POST } from "./route";

type Result = Awaited<ReturnType<Client["callTool"]>>;
type Org = Awaited<ReturnType<typeof createTestOrganization>> & { client: Client };

const unknownUuid = "6f1c1c8e-7d5a-4c63-9d53-2a3b9b1e0c11";
const challenge = `Bearer resource_metadata="${config().baseUrl}/.well-known/oauth-protected-resource/mcp", scope="read write"`;

let server: Awaited<ReturnType<typeof serveRoute>>;
let receiver: Awaited<ReturnType<typeof startWebhookReceiver>>;
const clients: Client[] = [];

async function connect(authorization: string) {
  const client = new Client({ name: "mcp-int-test", version: "1.0.0" });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`), {
      requestInit: { headers: { authorization } },
    }),
  );
  clients.push(client);
  // Lets the SDK client check every structuredContent against the tool's outputSchema from now on.
  await client.listTools();
  return client;
}

async function organization(name = "Test Store"): Promise<Org> {
  const org = await createTestOrganization(name);
  return { ...org, client: await connect(org.auth.authorization) };
}

const call = (client: Client, name: string, args: Record<string, unknown> = {}) =>
  client.callTool({ name, arguments: args }) as Promise<Result>;

function data(result: Result) {
  if (result.isError) throw new Error(`tool error: ${JSON.stringify(result.content)}`);
  // The same JSON as text, for clients that read only text.
  expect(JSON.parse((result.content as { text: string }[])[0].text)).toEqual(result.structuredContent);
  // biome-ignore lint/suspicious/noExplicitAny: tests read arbitrary tool results.
  return result.structuredContent as any;
}

function errorCode(result: Result) {
  expect(result.isError).toBe(true);
  return (result.content as { text: string }[])[0].text.split(":")[0];
}

/** Calls a destructive tool twice, as an agent does after the user agreed to the preview. */
async function confirmed(client: Client, name: string, args: Record<string, unknown>) {
  const preview = await call(client, name, args);
  expect(errorCode(preview)).toBe("confirmation_required");
  const token = /"confirmationToken": "(cct_[^"]+)"/.exec(
    (preview.content as { text: string }[])[0].text,
  )?.[1];
  return call(client, name, { ...args, confirmationToken: token });
}

const initialize = (protocolVersion: string) => ({
  jsonrpc: "2.0",
  id: 1,
  method: "initialize",
  params: { protocolVersion, capabilities: {}, clientInfo: { name: "raw", version: "1" } },
});

async function post(headers: Record<string, string>, body: unknown = initialize("2025-11-25")) {
  return fetch(`${server.url}/mcp`, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      ...headers,
    },
    body: JSON.stringify(body),
  });
}

beforeAll(async () => {
  server = await serveRoute({ GET, POST, DELETE }, config().baseUrl);
  receiver = await startWebhookReceiver();
});

afterAll(async () => {
  await Promise.all(clients.map((client) => client.close()));
  await server.close();
  await receiver.close();
});

describe("MCP server at /mcp: transport and authentication", () => {
  it.each([
    ["no credential", {}, challenge],
    ["an unknown key", { authorization: "Bearer sk_live_unknown" }, `${challenge}, error="invalid_token"`],
    ["another scheme", { authorization: "Basic dXNlcjpwYXNz" }, `${challenge}, error="invalid_token"`],
  ])("answers %s with 401 and the sign-in challenge", async (_, headers, expected) => {
    const response = await post(headers);
    expect(response.status).toBe(401);
    expect(response.headers.get("www-authenticate")).toBe(expected);
  });

  it.each([
    ["a foreign Host", { host: "evil.example" }, 403, "host_not_allowed"],
    ["a foreign Origin", { origin: "https://evil.example" }, 403, "origin_not_allowed"],
    ["a loopback alias of the base URL", { host: "127.0.0.1:3000" }, 200, undefined],
    ["the base URL's own Origin", { origin: "http://localhost:3000" }, 200, undefined],
  ])("checks Host and Origin: %s", async (_, headers, status, code) => {
    const { auth } = await createTestOrganization();
    const response = await callRoute(POST, "/mcp", {
      headers: {
        ...auth,
        host: new URL(config().baseUrl).host,
        accept: "application/json, text/event-stream",
        ...headers,
      },
      body: initialize("2025-11-25"),
    });
    expect(response.status).toBe(status);
    if (code) expect(response.json.error.code).toBe(code);
  });

  it("negotiates every protocol version the SDK supports", async () => {
    const { auth } = await createTestOrganization();
    for (const version of SUPPORTED_PROTOCOL_VERSIONS) {
      const response = await post(auth, initialize(version));
      expect(response.status).toBe(200);
      expect((await response.json()).result).toMatchObject({
        protocolVersion: version,
        serverInfo: { name: "crypto-checkout" },
        capabilities: { tools: {}, resources: {}, prompts: {} },
      });
    }
    const unknown = await (await post(auth, initialize("1999-01-01"))).json();
    expect(unknown.result.protocolVersion).toBe(SUPPORTED_PROTOCOL_VERSIONS[0]);
  });

  it("refuses the GET stream with 405 (stateless) and answers JSON to POST", async () => {
    const { auth } = await createTestOrganization();
    const response = await fetch(`${server.url}/mcp`, { headers: { ...auth, accept: "text/event-stream" } });
    expect(response.status).toBe(405);
    expect((await post(auth)).headers.get("content-type")).toContain("application/json");
  });
});

describe("MCP server at /mcp: agent credentials", () => {
  it("lets a read-only agent credential see and call only the read tools", async () => {
    const { organization } = await createTestOrganization("Agent Store");
    const readOnly = await createTestAgentCredential(organization.id, "read");
    const client = await connect(readOnly.auth.authorization);
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name)).toEqual(toolsFor("read", "remote").map((tool) => tool.name));
    expect(data(await call(client, "service_auth_status"))).toEqual({
      object: "auth_status",
      organization: { id: organization.id, name: "Agent Store" },
      credential: { kind: "agent", id: readOnly.credential.id },
      access: "read",
    });
    // A write tool is refused at the HTTP level (MCP scope step-up), before any tool runs.
    await expect(
      call(client, "service_paylinks_create", { name: "P", amount: "1", currency: "USD" }),
    ).rejects.toThrow(/insufficient_scope/);
    const refused = await post(readOnly.auth, {
      jsonrpc: "2.0",
      id: 7,
      method: "tools/call",
      params: { name: "service_paylinks_create", arguments: { name: "P", amount: "1", currency: "USD" } },
    });
    expect(refused.status).toBe(403);
    expect(refused.headers.get("www-authenticate")).toBe(
      'Bearer error="insufficient_scope", scope="read write"',
    );
    expect((await refused.json()).error.code).toBe("insufficient_scope");
    expect(await db().paylink.count({ where: { organizationId: organization.id } })).toBe(0);
  });

  it("lets a read-write agent credential change its organization", async () => {
    const { organization } = await createTestOrganization();
    const writer = await createTestAgentCredential(organization.id, "write");
    const client = await connect(writer.auth.authorization);
    expect((await client.listTools()).tools).toHaveLength(31);
    data(await call(client, "service_paylinks_create", { name: "P", amount: "1", currency: "USD" }));
    expect(await db().paylink.count({ where: { organizationId: organization.id } })).toBe(1);
  });

  it("refuses a revoked agent credential with the sign-in challenge", async () => {
    const { organization } = await createTestOrganization();
    const revoked = await createTestAgentCredential(organization.id, "write");
    await db().agentCredential.update({
      where: { id: revoked.credential.id },
      data: { revokedAt: new Date() },
    });
    const response = await post(revoked.auth);
    expect(response.status).toBe(401);
    expect(response.headers.get("www-authenticate")).toBe(`${challenge}, error="invalid_token"`);
  });
});

describe("MCP server at /mcp: catalogue", () => {
  it("lists every remote tool with its annotations and schemas", async () => {
    const { client } = await organization();
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name)).toEqual(toolsFor("write", "remote").map((tool) => tool.name));
    expect(tools.find((tool) => tool.name === "service_paylinks_disable")?.annotations).toEqual({
      title: "Disable a paylink",
      readOnlyHint: false,
      destructiveHint: true,
      idempotentHint: true,
      openWorldHint: false,
    });
    expect(tools).toMatchSnapshot();
    expect(client.getInstructions()).toContain("confirmation_required");
  });

  it("serves the knowledge resources and the prompts", async () => {
    const { client } = await organization();
    const { resources } = await client.listResources();
    expect(resources.map((resource) => resource.uri)).toEqual([
      "crypto-checkout://docs/quickstart",
      "crypto-checkout://docs/paylinks",
      "crypto-checkout://docs/webhooks",
      "crypto-checkout://docs/client-setup",
      "ui://crypto-checkout/payment.html",
    ]);
    const webhooks = await client.readResource({ uri: "crypto-checkout://docs/webhooks" });
    const text = (webhooks.contents[0] as { text: string }).text;
    expect(text).toContain("request.text()");
    expect(text).toContain("request.get_data()");
    const setup = await client.readResource({ uri: "crypto-checkout://docs/client-setup" });
    expect((setup.contents[0] as { text: string }).text).toContain(
      `claude mcp add --transport http crypto-checkout ${config().baseUrl}/mcp`,
    );
    const { prompts } = await client.listPrompts();
    expect(prompts.map((prompt) => prompt.name)).toEqual([
      "integrate_checkout_with_webhooks",
      "create_or_reuse_paylink",
      "webhook_handler_raw_body",
      "verify_payment_flow_devnet",
      "reuse_stripe_webhook_path",
    ]);
    const prompt = await client.getPrompt({
      name: "create_or_reuse_paylink",
      arguments: { name: "Stickers", amount: "4.50" },
    });
    expect(prompt.messages[0].content).toMatchObject({
      type: "text",
      text: expect.stringContaining('"Stickers" at 4.50 USD'),
    });
    expect(prompt.messages[1].content).toMatchObject({
      type: "resource",
      resource: { uri: "crypto-checkout://docs/paylinks" },
    });
  });
});

describe("MCP server at /mcp: payment app (MCP Apps)", () => {
  it("links paylink and session tools to a self-contained HTML app and sends the QR code with their results", async () => {
    const { client } = await organization();
    const { tools } = await client.listTools();
    expect(
      tools
        .map((tool) => [
          tool.name,
          (tool._meta as { ui?: { resourceUri: string } } | undefined)?.ui?.resourceUri,
        ])
        .filter(([, resourceUri]) => resourceUri),
    ).toEqual(
      [
        "service_checkout_sessions_create",
        "service_checkout_sessions_get",
        "service_paylinks_create",
        "service_paylinks_get",
      ].map((name) => [name, "ui://crypto-checkout/payment.html"]),
    );
    const app = await client.readResource({ uri: "ui://crypto-checkout/payment.html" });
    const { mimeType, text } = app.contents[0] as { mimeType: string; text: string };
    expect(mimeType).toBe("text/html;profile=mcp-app");
    // The inlined ext-apps bundle and the page script form one valid ES module.
    const script = text.slice(text.indexOf('<script type="module">') + 22, text.lastIndexOf("</script>"));
    const file = path.join(mkdtempSync(path.join(tmpdir(), "mcp-app-")), "app.mjs");
    writeFileSync(file, script);
    execFileSync(process.execPath, ["--check", file]);
    expect(script).toContain("new extApps.App(");
    expect(script).toContain("service_payments_status");

    const created = await call(client, "service_paylinks_create", {
      name: "QR",
      amount: "2",
      currency: "USD",
    });
    expect(created._meta?.["crypto-checkout/qrSvg"]).toMatch(/^<svg [^>]*>.*<\/svg>$/s);
    // Clients without apps still get the whole result as text.
    expect(JSON.parse((created.content as { text: string }[])[0].text).url).toMatch(/\/pay\//);
    const listed = await call(client, "service_paylinks_list");
    expect(listed._meta).toBeUndefined();
  });
});

describe("MCP server at /mcp: tools", () => {
  let a: Org;
  beforeAll(async () => {
    a = await organization("Shop A");
  });

  it("runs every tool's happy path against the same domain functions as REST", async () => {
    const { client, organization: org, apiKey } = a;
    const status = data(await call(client, "service_auth_status"));
    expect(status).toEqual({
      object: "auth_status",
      organization: { id: org.id, name: "Shop A" },
      credential: { kind: "api_key", id: expect.stringMatching(/^key_/) },
      access: "write",
    });
    expect(apiKey).toMatch(/^sk_live_/);

    const paylink = data(
      await call(client, "service_paylinks_create", { name: "Pack", amount: "4.5", currency: "USD" }),
    );
    expect(paylink).toMatchObject({
      object: "paylink",
      amount: "4.50",
      enabled: true,
      x402Url: `http://localhost:3000/api/x402/paylinks/${paylink.id}`,
    });
    expect(await db().paylink.count({ where: { organizationId: org.id } })).toBe(1);
    expect(data(await call(client, "service_paylinks_get", { id: paylink.id }))).toEqual(paylink);
    const list = await call(client, "service_paylinks_list", { rows: 1 });
    expect(data(list)).toMatchObject({ object: "list", total: 1, hasMore: false, data: [paylink] });
    expect((list.content as { text: string }[])[1].text).toBe("This is the last page of results.");
    const edited = data(
      await call(client, "service_paylinks_edit", { id: paylink.id, amount: "9", currency: "EUR" }),
    );
    expect(edited).toMatchObject({ amount: "9.00", currency: "EUR" });

    const args = {
      idempotencyKey: "order-1042-attempt-1",
      amount: "49.00",
      currency: "USD",
      merchantOrderId: "1042",
    };
    const session = data(await call(client, "service_checkout_sessions_create", args));
    expect(session).toMatchObject({
      object: "checkout_session",
      status: "OPEN",
      amount: "49.00",
      merchantOrderId: "1042",
      x402Url: `http://localhost:3000/api/x402/checkout-sessions/${session.id}`,
    });
    const replay = await call(client, "service_checkout_sessions_create", args);
    expect(data(replay).id).toBe(session.id);
    expect(await db().checkoutSession.count({ where: { organizationId: org.id } })).toBe(1);
    expect(data(await call(client, "service_checkout_sessions_get", { id: session.id }))).toMatchObject({
      id: session.id,
      payment: null,
    });
    expect(data(await call(client, "service_payments_status", { checkoutSessionId: session.id }))).toEqual({
      object: "payment_status",
      checkoutSessionId: session.id,
      sessionStatus: "OPEN",
      paid: false,
      payment: null,
    });
    const invoice = await createTestInvoice(org.id, { amount: "12.00", status: "CONFIRMED" });
    expect(
      data(await call(client, "service_payments_status", { checkoutSessionId: invoice.checkoutSessionId })),
    ).toMatchObject({
      paid: true,
      payment: { invoiceId: invoice.id, status: "CONFIRMED" },
    });
    expect(data(await call(client, "service_transactions_list"))).toMatchObject({
      total: 1,
      data: [{ id: invoice.id }],
    });
    expect(data(await call(client, "service_sweeps_list", { status: "FAILED" }))).toMatchObject({
      total: 0,
      data: [],
    });

    const subscription = await createTestSubscription(org.id, { customerEmail: "member@example.com" });
    expect(data(await call(client, "service_subscriptions_list", { status: "ACTIVE" }))).toMatchObject({
      total: 1,
      data: [{ id: subscription.id, object: "subscription" }],
    });
    expect(
      data(await call(client, "service_subscriptions_get", { id: subscription.id })).invoices,
    ).toHaveLength(1);
    const preview = await call(client, "service_subscriptions_cancel", {
      id: subscription.id,
      atPeriodEnd: true,
    });
    expect((preview.content as { text: string }[])[0].text).toMatch(
      /^confirmation_required: Cancel subscription sub_\w+ of member@example\.com \(9\.00 USD every 1 month\) at the end/,
    );
    expect(
      data(
        await confirmed(client, "service_subscriptions_cancel", { id: subscription.id, atPeriodEnd: true }),
      ),
    ).toMatchObject({ status: "ACTIVE", cancelAtPeriodEnd: true });

    expect(data(await call(client, "service_organization_get"))).toMatchObject({
      id: org.id,
      name: "Shop A",
    });
    expect(data(await call(client, "service_organization_update", { name: "Shop A2" }))).toMatchObject({
      name: "Shop A2",
    });
    const wallet = { network: "devnet", address: "0x000000000000000000000000000000000000dEaD" };
    const settled = data(
      await confirmed(client, "service_settlement_configure", { settlementWallets: [wallet] }),
    );
    // The API key's first wallet waits out the delay, like any change it makes.
    expect(settled.settlementWallets).toEqual([]);
    expect(settled.pendingSettlementWallets).toMatchObject([{ ...wallet, status: "scheduled" }]);
    expect(await db().settlementWallet.count({ where: { organizationId: org.id } })).toBe(0);

    const endpoint = data(
      await call(client, "service_webhooks_create", { name: "Orders", url: `${receiver.url}/hooks` }),
    );
    expect(endpoint).toMatchObject({
      object: "webhook_endpoint",
      adapter: "NONE",
      signingSecret: expect.stringMatching(/^whsec_/),
    });
    expect(data(await call(client, "service_webhooks_list")).data).toEqual([
      expect.objectContaining({ id: endpoint.id, name: "Orders" }),
    ]);
    expect(
      data(await call(client, "service_webhooks_update", { id: endpoint.id, adapter: "STRIPE" })),
    ).toMatchObject({
      adapter: "STRIPE",
    });
    const rotated = data(await confirmed(client, "service_webhooks_rotate_secret", { id: endpoint.id }));
    expect(rotated.signingSecret).toMatch(/^whsec_/);
    expect(rotated.signingSecret).not.toBe(endpoint.signingSecret);
    expect(rotated.previousSecretExpiresAt).toEqual(expect.any(String));
    const test = data(await call(client, "service_webhooks_send_test", { id: endpoint.id }));
    expect(test).toEqual({
      eventId: expect.stringMatching(/^evt_test_/),
      type: "payment.confirmed",
      livemode: false,
    });
    const deliveries = data(await call(client, "service_webhooks_list_deliveries", { id: endpoint.id }));
    expect(deliveries.data).toEqual([expect.objectContaining({ eventId: test.eventId })]);
    expect(
      data(await call(client, "service_webhooks_list_event_deliveries", { id: test.eventId })).total,
    ).toBe(1);
    const again = data(
      await call(client, "service_webhooks_redeliver", { id: endpoint.id, eventId: test.eventId }),
    );
    expect(again).toMatchObject({ object: "webhook_delivery", eventId: test.eventId, status: "PENDING" });
    expect(await db().webhookDelivery.count({ where: { eventId: test.eventId } })).toBe(2);

    const disabled = data(await confirmed(client, "service_paylinks_disable", { id: paylink.id }));
    expect(disabled.enabled).toBe(false);
    expect((await db().paylink.findUniqueOrThrow({ where: { id: paylink.id } })).enabled).toBe(false);
  });

  it.each<[string, Record<string, unknown>, string]>([
    ["service_auth_status", { extra: 1 }, "parameter_unknown"],
    [
      "service_agent_register",
      { email: "new@example.com", projectName: "P", agentName: "A", integrationIntent: "accept_payments" },
      "already_connected",
    ],
    ["service_checkout_sessions_create", { amount: "1.00", currency: "USD" }, "parameter_missing"],
    [
      "service_checkout_sessions_create",
      { idempotencyKey: "k".repeat(16), amount: 1, currency: "USD" },
      "parameter_invalid",
    ],
    [
      "service_checkout_sessions_create",
      { idempotencyKey: "k".repeat(16), paylinkId: unknownUuid },
      "resource_missing",
    ],
    ["service_checkout_sessions_get", { id: "ycs_unknown" }, "resource_missing"],
    ["service_paylinks_create", { name: "P", amount: "0", currency: "USD" }, "parameter_invalid"],
    ["service_paylinks_create", { name: "P", amount: "1", currency: "DOGE" }, "parameter_invalid"],
    ["service_paylinks_list", { rows: 101 }, "parameter_invalid"],
    ["service_paylinks_get", { id: unknownUuid }, "resource_missing"],
    ["service_paylinks_edit", { id: unknownUuid, amount: "10" }, "parameter_invalid"],
    ["service_paylinks_edit", { id: unknownUuid, enabled: false }, "parameter_invalid"],
    ["service_paylinks_disable", { id: unknownUuid }, "resource_missing"],
    ["service_paylinks_disable", { id: unknownUuid, confirm: true }, "parameter_unknown"],
    ["service_payments_status", { checkoutSessionId: "ycs_unknown" }, "resource_missing"],
    ["service_transactions_list", { page: 0 }, "parameter_invalid"],
    ["service_subscriptions_list", { status: "OPEN" }, "parameter_invalid"],
    ["service_subscriptions_get", { id: "sub_unknown" }, "resource_missing"],
    ["service_subscriptions_cancel", { id: "sub_unknown" }, "resource_missing"],
    ["service_subscriptions_cancel", { id: "sub_unknown", confirm: true }, "parameter_unknown"],
    ["service_sweeps_list", { status: "LOST" }, "parameter_invalid"],
    ["service_organization_get", { id: "org_other" }, "parameter_unknown"],
    ["service_organization_update", { webhookUrl: "ftp://example.com" }, "parameter_invalid"],
    [
      "service_settlement_configure",
      { settlementWallets: [{ network: "devnet", address: "0x123" }] },
      "parameter_invalid",
    ],
    [
      "service_settlement_configure",
      { settlementWallets: [], confirmationToken: "cct_forged.sig" },
      "confirmation_invalid",
    ],
    ["service_webhooks_create", { name: "W", url: "not a url" }, "parameter_invalid"],
    ["service_webhooks_list", { page: 1 }, "parameter_unknown"],
    ["service_webhooks_update", { id: "we_unknown", name: "W" }, "resource_missing"],
    ["service_webhooks_rotate_secret", { id: "we_unknown" }, "resource_missing"],
    ["service_webhooks_send_test", { id: "we_unknown" }, "resource_missing"],
    ["service_webhooks_list_deliveries", {}, "parameter_missing"],
    ["service_webhooks_redeliver", { id: "we_unknown", eventId: "evt_unknown" }, "resource_missing"],
  ])("%s answers %j with a tool error carrying REST's code", async (name, args, code) => {
    const result = await call(a.client, name, args);
    expect(errorCode(result)).toBe(code);
    expect((result.content as { text: string }[])[0].text).toMatch(/Request id: /);
  });

  it("acts on a destructive step only with a fresh token for exactly the confirmed arguments", async () => {
    const { client, organization: org } = await organization();
    const first = data(
      await call(client, "service_paylinks_create", { name: "One", amount: "1", currency: "USD" }),
    );
    const second = data(
      await call(client, "service_paylinks_create", { name: "Two", amount: "1", currency: "USD" }),
    );
    const preview = await call(client, "service_paylinks_disable", { id: first.id });
    const text = (preview.content as { text: string }[])[0].text;
    expect(text).toMatch(/^confirmation_required: Disable paylink "One" \(1\.00 USD, /);
    const token = /"confirmationToken": "(cct_[^"]+)"/.exec(text)?.[1];
    const other = await organization();
    const refusals = [
      [client, { id: second.id, confirmationToken: token }, "confirmation_mismatch"],
      [other.client, { id: first.id, confirmationToken: token }, "confirmation_invalid"],
      [client, { id: first.id, confirmationToken: `${token}x` }, "confirmation_invalid"],
    ] as const;
    for (const [caller, args, code] of refusals) {
      expect(errorCode(await call(caller, "service_paylinks_disable", args))).toMatch(
        new RegExp(`^(${code}|resource_missing)$`),
      );
    }
    expect(await db().paylink.count({ where: { organizationId: org.id, enabled: false } })).toBe(0);
    expect(
      data(await call(client, "service_paylinks_disable", { id: first.id, confirmationToken: token }))
        .enabled,
    ).toBe(false);
    expect((await db().paylink.findUniqueOrThrow({ where: { id: second.id } })).enabled).toBe(true);
  });

  it("lets a confirmation token act once: a replay and concurrent copies are refused", async () => {
    const { client, organization: org } = await organization();
    const endpoint = data(
      await call(client, "service_webhooks_create", { name: "E", url: `${receiver.url}/e` }),
    );
    const preview = await call(client, "service_webhooks_rotate_secret", { id: endpoint.id });
    const token = /"confirmationToken": "(cct_[^"]+)"/.exec(
      (preview.content as { text: string }[])[0].text,
    )?.[1];
    const secretOf = async () =>
      (await db().webhookEndpoint.findUniqueOrThrow({ where: { id: endpoint.id } })).secretCiphertext;
    const before = await secretOf();
    // Three copies at once: exactly one rotates.
    const results = await Promise.all(
      [1, 2, 3].map(() =>
        call(client, "service_webhooks_rotate_secret", { id: endpoint.id, confirmationToken: token }),
      ),
    );
    const codes = results.map((result) => (result.isError ? errorCode(result) : "ok")).sort();
    expect(codes[2]).toBe("ok");
    expect(
      codes.slice(0, 2).every((code) => code === "confirmation_used" || code === "confirmation_stale"),
    ).toBe(true);
    const after = await secretOf();
    expect(after).not.toBe(before);
    // Later, the same token again: refused, nothing rotates.
    const replay = await call(client, "service_webhooks_rotate_secret", {
      id: endpoint.id,
      confirmationToken: token,
    });
    expect(errorCode(replay)).toMatch(/^confirmation_(used|stale)$/);
    expect(await secretOf()).toBe(after);
    expect(await db().usedConfirmation.count({ where: { organizationId: org.id } })).toBe(1);
  });

  it("refuses a token once the state it previewed changed, even for the same arguments", async () => {
    const { client, organization: org } = await organization();
    const paylink = data(
      await call(client, "service_paylinks_create", { name: "Old name", amount: "1", currency: "USD" }),
    );
    const preview = await call(client, "service_paylinks_disable", { id: paylink.id });
    const token = /"confirmationToken": "(cct_[^"]+)"/.exec(
      (preview.content as { text: string }[])[0].text,
    )?.[1];
    data(await call(client, "service_paylinks_edit", { id: paylink.id, name: "New name" }));
    const stale = await call(client, "service_paylinks_disable", {
      id: paylink.id,
      confirmationToken: token,
    });
    expect(errorCode(stale)).toBe("confirmation_stale");
    expect(await db().paylink.count({ where: { organizationId: org.id, enabled: false } })).toBe(0);
    expect(await db().usedConfirmation.count({ where: { organizationId: org.id } })).toBe(0);
  });
});

describe("MCP server at /mcp: tenant isolation", () => {
  it("never lets organization A read or change B's objects, through any tool", async () => {
    const a = await organization("Shop A");
    const b = await organization("Shop B");
    const paylink = data(
      await call(b.client, "service_paylinks_create", { name: "B's", amount: "5", currency: "USD" }),
    );
    const invoice = await createTestInvoice(b.organization.id, { amount: "7.00", status: "CONFIRMED" });
    const subscription = await createTestSubscription(b.organization.id);
    const paid = await createTestPaidInvoice(b.organization.id, {
      amount: "9",
      payments: [{ amount: "9", fromAddress: "0x70997970C51812dc3A010C7d01b50e0d17dc79C8" }],
    });
    const refund = data(
      await confirmed(b.client, "service_refunds_create", {
        invoiceId: paid.id,
        amount: "1",
        destination: "payer",
      }),
    );
    // B's funds swept: A's sweep list must not show it (its invoice id is in onlyA's pattern).
    await createTestSweep(b.organization.id, { status: "CONFIRMED", invoice });
    const endpoint = data(
      await call(b.client, "service_webhooks_create", { name: "B", url: `${receiver.url}/b` }),
    );
    const event = data(await call(b.client, "service_webhooks_send_test", { id: endpoint.id }));
    const ownEndpoint = data(
      await call(a.client, "service_webhooks_create", { name: "A", url: `${receiver.url}/a` }),
    );
    const bState = async () => ({
      organization: await db().organization.findUniqueOrThrow({
        where: { id: b.organization.id },
        include: { settlementWallets: true },
      }),
      paylinks: await db().paylink.findMany({ where: { organizationId: b.organization.id } }),
      sessions: await db().checkoutSession.count({ where: { organizationId: b.organization.id } }),
      endpoints: await db().webhookEndpoint.findMany({ where: { organizationId: b.organization.id } }),
      deliveries: await db().webhookDelivery.count({ where: { organizationId: b.organization.id } }),
      subscriptions: await db().subscription.findMany({ where: { organizationId: b.organization.id } }),
      refunds: await db().refund.findMany({ where: { organizationId: b.organization.id } }),
    });
    const before = await bState();
    const onlyA = (result: Result) =>
      expect(JSON.stringify(data(result))).not.toMatch(
        new RegExp(
          `${b.organization.id}|${paylink.id}|${invoice.id}|${endpoint.id}|${subscription.id}|${paid.id}|${refund.id}|Shop B`,
        ),
      );
    const missing = (result: Result) => expect(errorCode(result)).toBe("resource_missing");

    const attempts: [string, Record<string, unknown>, (result: Result) => void][] = [
      ["service_auth_status", {}, (result) => expect(data(result).organization.id).toBe(a.organization.id)],
      [
        "service_agent_register",
        { email: "x@example.com", projectName: "P", agentName: "A", integrationIntent: "accept_payments" },
        (result) => expect(errorCode(result)).toBe("already_connected"),
      ],
      [
        "service_checkout_sessions_create",
        { idempotencyKey: "tenant-test-key-1", paylinkId: paylink.id },
        missing,
      ],
      ["service_checkout_sessions_get", { id: invoice.checkoutSessionId }, missing],
      ["service_paylinks_create", { name: "A's", amount: "1", currency: "USD" }, onlyA],
      ["service_paylinks_list", {}, onlyA],
      ["service_paylinks_get", { id: paylink.id }, missing],
      ["service_paylinks_edit", { id: paylink.id, name: "Mine" }, missing],
      ["service_paylinks_disable", { id: paylink.id }, missing],
      ["service_payments_status", { checkoutSessionId: invoice.checkoutSessionId }, missing],
      ["service_transactions_list", {}, onlyA],
      ["service_subscriptions_list", {}, onlyA],
      ["service_subscriptions_get", { id: subscription.id }, missing],
      ["service_subscriptions_cancel", { id: subscription.id }, missing],
      ["service_subscriptions_cancel", { id: subscription.id, atPeriodEnd: true }, missing],
      ["service_refunds_create", { invoiceId: paid.id, destination: "payer" }, missing],
      ["service_refunds_list", {}, onlyA],
      ["service_refunds_get", { id: refund.id }, missing],
      [
        "service_reports_payments",
        {
          from: new Date(Date.now() - 86_400_000).toISOString(),
          to: new Date(Date.now() + 86_400_000).toISOString(),
        },
        onlyA,
      ],
      [
        "service_reports_refunds",
        {
          from: new Date(Date.now() - 86_400_000).toISOString(),
          to: new Date(Date.now() + 86_400_000).toISOString(),
        },
        onlyA,
      ],
      ["service_sweeps_list", {}, onlyA],
      ["service_organization_get", {}, onlyA],
      ["service_organization_update", { name: "Renamed A" }, onlyA],
      [
        "service_settlement_configure",
        { settlementWallets: [] },
        (result) => expect(errorCode(result)).toBe("confirmation_required"),
      ],
      ["service_webhooks_create", { name: "A2", url: `${receiver.url}/a2` }, onlyA],
      ["service_webhooks_list", {}, onlyA],
      ["service_webhooks_update", { id: endpoint.id, enabled: false }, missing],
      ["service_webhooks_rotate_secret", { id: endpoint.id }, missing],
      ["service_webhooks_send_test", { id: endpoint.id }, missing],
      ["service_webhooks_list_deliveries", { id: endpoint.id }, missing],
      ["service_webhooks_list_event_deliveries", { id: event.eventId }, missing],
      ["service_webhooks_redeliver", { id: endpoint.id, eventId: event.eventId }, missing],
      ["service_webhooks_redeliver", { id: ownEndpoint.id, eventId: event.eventId }, missing],
    ];
    // The table covers every tool the remote server offers.
    expect(new Set(attempts.map(([name]) => name))).toEqual(
      new Set(toolsFor("write", "remote").map((tool) => tool.name)),
    );
    for (const [name, args, check] of attempts) check(await call(a.client, name, args));
    // A's confirmed settlement change touches A's wallets only.
    await confirmed(a.client, "service_settlement_configure", {
      settlementWallets: [{ network: "base", address: "0x000000000000000000000000000000000000dEaD" }],
    });
    expect(await bState()).toEqual(before);
  });
});

describe("MCP server at /mcp: settlement wallets", () => {
  it("turns an agent's confirmed change into a proposal; sweeps keep going to the wallet in force", async () => {
    const org = await organization("Shop S");
    const inForce = { network: "devnet", address: "0x000000000000000000000000000000000000dEaD" };
    const elsewhere = "0x000000000000000000000000000000000000bEEF";
    await setTestSettlementWallets(org.organization.id, [inForce]);
    const agent = await connect(
      (await createTestAgentCredential(org.organization.id, "write")).auth.authorization,
    );

    const proposal = await confirmed(agent, "service_settlement_configure", {
      settlementWallets: [{ network: "devnet", address: elsewhere }],
    });
    expect(data(proposal)).toMatchObject({
      settlementWallets: [inForce],
      pendingSettlementWallets: [
        {
          network: "devnet",
          address: elsewhere,
          status: "proposed",
          proposedBy: { kind: "agent", name: "Test agent" },
          effectiveAt: null,
        },
      ],
    });
    expect((proposal.content as { text: string }[])[1].text).toMatch(/^Proposed, not applied/);
    expect(
      await db().settlementWallet.findMany({
        where: { organizationId: org.organization.id },
        select: { network: true, address: true },
      }),
    ).toEqual([inForce]);
  });
});
