// Solana through the merchant's doors, on the local Solana chain: a checkout session created with a
// network (REST and its MCP tool) answers the Solana Pay request to pay, and the refund tool takes
// base58 destinations on a Solana invoice.
import { randomBytes } from "node:crypto";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { base58 } from "@scure/base";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { POST as createSession } from "@/app/api/checkout-sessions/route";
import { config } from "@/lib/config";
import { db } from "@/lib/db/client";
import { callRoute } from "@/scripts/test-support/call-route";
import { createTestAgentCredential, createTestOrganization } from "@/scripts/test-support/fixtures";
import { createTestPaidInvoice } from "@/scripts/test-support/refund-fixtures";
import { serveRoute } from "@/scripts/test-support/serve-route";
import { startTestLocalSolana, type TestLocalSolana } from "@/scripts/test-support/test-local-solana";
import { DELETE, GET, POST } from "./route";

type Result = Awaited<ReturnType<Client["callTool"]>>;

let solana: TestLocalSolana;
let server: Awaited<ReturnType<typeof serveRoute>>;
const clients: Client[] = [];

beforeAll(async () => {
  solana = await startTestLocalSolana();
  server = await serveRoute({ GET, POST, DELETE }, config().baseUrl);
});

afterAll(async () => {
  await Promise.all(clients.map((client) => client.close()));
  await server?.close();
  await solana?.stop();
});

async function connect(authorization: string) {
  const client = new Client({ name: "solana-tools-test", version: "1.0.0" });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`), {
      requestInit: { headers: { authorization } },
    }),
  );
  clients.push(client);
  // Lets the SDK client check every structuredContent against the tool's outputSchema.
  await client.listTools();
  return client;
}

const call = (client: Client, name: string, args: Record<string, unknown>) =>
  client.callTool({ name, arguments: args }) as Promise<Result>;
const text = (result: Result) => (result.content as { text: string }[])[0].text;
const base58Key = /^[1-9A-HJ-NP-Za-km-z]{32,44}$/;

type Created = {
  id: string;
  paymentRequest: {
    id: string;
    checkoutSessionId: string;
    network: string;
    token: string;
    amountDue: string;
    depositAddress: string;
    tokenAddress: string;
    reference: string;
    paymentUri: string;
    walletChain: string | null;
  } | null;
};

/** The Solana Pay transfer request a session started on solana-local must answer. */
function expectSolanaPayRequest(created: Created) {
  const request = created.paymentRequest;
  expect(request).toMatchObject({
    checkoutSessionId: created.id,
    network: "solana-local",
    token: "USDC",
    amountDue: "12.500000",
    depositAddress: solana.receiver,
    tokenAddress: solana.network.tokens[0].address,
  });
  expect(request?.reference).toMatch(base58Key);
  const uri = new URL(request?.paymentUri as string);
  expect(uri.protocol).toBe("solana:");
  expect(uri.pathname).toBe(solana.receiver);
  expect(uri.searchParams.get("amount")).toBe("12.500000");
  expect(uri.searchParams.get("spl-token")).toBe(request?.tokenAddress);
  expect(uri.searchParams.get("reference")).toBe(request?.reference);
  return request;
}

describe("a checkout session created with a Solana network", () => {
  it("answers its Solana Pay request over REST, once per Idempotency-Key", async () => {
    const merchant = await createTestOrganization("Solana Shop");
    const create = () =>
      callRoute(createSession, "/api/checkout-sessions", {
        headers: { ...merchant.auth, "idempotency-key": "solana-order-1-attempt-1" },
        body: { amount: "12.50", currency: "USD", network: "solana-local", token: "USDC" },
      });
    const first = await create();
    expect(first.status, first.text).toBe(200);
    const request = expectSolanaPayRequest(first.json as Created);
    const retry = await create();
    expect(retry.status, retry.text).toBe(200);
    expect((retry.json as Created).paymentRequest).toEqual(request);
    expect(await db().invoice.count({ where: { organizationId: merchant.organization.id } })).toBe(1);

    const plain = await callRoute(createSession, "/api/checkout-sessions", {
      headers: { ...merchant.auth, "idempotency-key": "plain-order-1-attempt-1" },
      body: { amount: "12.50", currency: "USD" },
    });
    expect((plain.json as Created).paymentRequest).toBeNull();
  });

  it.each([
    [{ network: "solana-local" }, 400, "parameter_missing", "token"],
    [{ token: "USDC" }, 400, "parameter_missing", "network"],
    [{ network: "solana-moon", token: "USDC" }, 400, "network_unavailable", "network"],
    [{ network: "solana-local", token: "USDT" }, 400, "token_unavailable", "token"],
  ])("refuses %j with %i %s, and creates no session", async (choice, status, code, param) => {
    const merchant = await createTestOrganization();
    const answer = await callRoute(createSession, "/api/checkout-sessions", {
      headers: { ...merchant.auth, "idempotency-key": `refused-${code}-${param}-attempt` },
      body: { amount: "5.00", currency: "USD", ...choice },
    });
    expect(answer.status, answer.text).toBe(status);
    expect(answer.json).toMatchObject({ error: { code, param } });
    expect(await db().checkoutSession.count({ where: { organizationId: merchant.organization.id } })).toBe(0);
  });

  it("answers its Solana Pay request from service_checkout_sessions_create", async () => {
    const merchant = await createTestOrganization();
    const client = await connect(merchant.auth.authorization);
    const result = await call(client, "service_checkout_sessions_create", {
      idempotencyKey: "agent-order-7-attempt-1",
      amount: "12.50",
      currency: "USD",
      network: "solana-local",
      token: "USDC",
    });
    expect(result.isError, text(result)).toBeFalsy();
    expectSolanaPayRequest(result.structuredContent as Created);
  });
});

describe("service_refunds_create on a Solana invoice", () => {
  const payer = "9WzDXwBbmkg8ZTbNMqUxvQRAyrZzDsGYdLVL9zYtAWWM";
  const named = "HN7cABqLq46Es1jh92dQQisAq662SmxELLLsHHe4YWrH";

  async function solanaInvoice(organizationId: string) {
    const invoice = await createTestPaidInvoice(organizationId, {
      amount: "30",
      payments: [{ amount: "30", fromAddress: payer }],
    });
    return db().invoice.update({
      where: { id: invoice.id },
      data: {
        network: "solana-local",
        depositAddress: solana.receiver,
        reference: base58.encode(randomBytes(32)),
      },
    });
  }

  it.each([
    ["payer", `to the address that paid, ${payer}?`],
    [named, `to ${named}, an address you named`],
  ])("previews a refund to %s in base58, on the network's name", async (destination, to) => {
    const { organization } = await createTestOrganization();
    const invoice = await solanaInvoice(organization.id);
    const agent = await connect(
      (await createTestAgentCredential(organization.id, "write")).auth.authorization,
    );
    const preview = await call(agent, "service_refunds_create", {
      invoiceId: invoice.id,
      amount: "10",
      destination,
    });
    expect(preview.isError).toBe(true);
    expect(text(preview)).toMatch(/^confirmation_required/);
    expect(text(preview)).toContain(`Refund 10 USDC on Local Solana of invoice ${invoice.id} ${to}`);
    expect(await db().refund.count({ where: { organizationId: organization.id } })).toBe(0);
  });

  it("refuses a destination that is neither address spelling", async () => {
    const { organization } = await createTestOrganization();
    const invoice = await solanaInvoice(organization.id);
    const agent = await connect(
      (await createTestAgentCredential(organization.id, "write")).auth.authorization,
    );
    const refused = await call(agent, "service_refunds_create", {
      invoiceId: invoice.id,
      destination: "0OIl-not-an-address",
    });
    expect(refused.isError).toBe(true);
    expect(text(refused)).toMatch(/^parameter_invalid/);
    expect(text(refused)).toContain("base58");
  });
});
