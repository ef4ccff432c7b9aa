import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { config } from "@/lib/config";
import { db } from "@/lib/db/client";
import { newId } from "@/lib/ids";
import { createTestAgentCredential, createTestOrganization } from "@/scripts/test-support/fixtures";
import { oauthAccessToken } from "@/scripts/test-support/oauth";
import { createTestPaidInvoice } from "@/scripts/test-support/refund-fixtures";
import { serveRoute } from "@/scripts/test-support/serve-route";
import { DELETE, GET, POST } from "./route";

// The refund tools over /mcp with the official SDK client, as an agent calls them: the
// confirmation is a preview for the agent's user; the authority decision (payer, daily cap) is
// still the refund's own.

type Result = Awaited<ReturnType<Client["callTool"]>>;

const payer = "0x70997970C51812dc3A010C7d01b50e0d17dc79C8";
const named = "0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC";

let server: Awaited<ReturnType<typeof serveRoute>>;
const clients: Client[] = [];

async function connect(authorization: string) {
  const client = new Client({ name: "refund-tools-test", version: "1.0.0" });
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

const texts = (result: Result) => (result.content as { text: string }[]).map((content) => content.text);

function errorCode(result: Result) {
  expect(result.isError).toBe(true);
  return texts(result)[0].split(":")[0];
}

const tokenOf = (preview: Result) => /"confirmationToken": "(cct_[^"]+)"/.exec(texts(preview)[0])?.[1];

async function agentOf(organizationId: string) {
  return connect((await createTestAgentCredential(organizationId, "write")).auth.authorization);
}

const refundRows = (organizationId: string) =>
  db().refund.findMany({ where: { organizationId }, select: { id: true, status: true, amount: true } });

beforeAll(async () => {
  server = await serveRoute({ GET, POST, DELETE }, config().baseUrl);
});

afterAll(async () => {
  await Promise.all(clients.map((client) => client.close()));
  await server.close();
});

describe("service_refunds_create by an agent credential", () => {
  it("refunds the payer within the cap after the user confirmed the preview, once per token", async () => {
    const { organization } = await createTestOrganization("Refund Shop");
    const invoice = await createTestPaidInvoice(organization.id, {
      amount: "40",
      payments: [{ amount: "40", fromAddress: payer }],
    });
    const agent = await agentOf(organization.id);
    const args = { invoiceId: invoice.id, amount: "16", destination: "payer" };

    const preview = await call(agent, "service_refunds_create", args);
    expect(errorCode(preview)).toBe("confirmation_required");
    expect(texts(preview)[0]).toContain(
      `Refund 16 USDC on devnet of invoice ${invoice.id} to the address that paid, ${payer}?`,
    );
    expect(texts(preview)[0]).toContain("daily cap for agents (100.00 USD)");
    expect(texts(preview)[0]).toContain("becomes a proposal (status requires_approval)");
    expect(await refundRows(organization.id)).toEqual([]);
    const token = tokenOf(preview);

    const changed = await call(agent, "service_refunds_create", {
      ...args,
      amount: "17",
      confirmationToken: token,
    });
    expect(errorCode(changed)).toBe("confirmation_mismatch");

    const done = await call(agent, "service_refunds_create", { ...args, confirmationToken: token });
    expect(done.isError).toBeFalsy();
    expect(done.structuredContent).toMatchObject({
      object: "refund",
      invoiceId: invoice.id,
      amount: "16",
      token: "USDC",
      network: "devnet",
      destination: "payer",
      toAddress: payer,
      status: "pending",
    });
    const [row] = await refundRows(organization.id);
    expect(row).toMatchObject({ id: (done.structuredContent as { id: string }).id, status: "PENDING" });

    const replay = await call(agent, "service_refunds_create", { ...args, confirmationToken: token });
    expect(errorCode(replay)).toMatch(/^confirmation_(used|stale)$/);
    expect(await refundRows(organization.id)).toHaveLength(1);

    const listed = await call(agent, "service_refunds_list", { invoiceId: invoice.id, status: "pending" });
    expect(listed.structuredContent).toMatchObject({
      object: "list",
      total: 1,
      hasMore: false,
      data: [done.structuredContent],
    });
    const read = await call(agent, "service_refunds_get", { id: row.id });
    expect(read.structuredContent).toEqual(done.structuredContent);
    expect(errorCode(await call(agent, "service_refunds_get", { id: "rfd_unknown" }))).toBe(
      "resource_missing",
    );
  });

  it.each([
    ["to the payer beyond the daily cap", "120", "payer"],
    ["through a claim link", "10", "claim"],
    ["to an address it names", "10", named],
  ])("only proposes a refund %s: requires_approval, nothing sent", async (_name, amount, destination) => {
    const { organization } = await createTestOrganization("Capped Shop");
    const invoice = await createTestPaidInvoice(organization.id, {
      amount: "150",
      payments: [{ amount: "150", fromAddress: payer }],
    });
    const agent = await agentOf(organization.id);
    const args = { invoiceId: invoice.id, amount, destination };
    const token = tokenOf(await call(agent, "service_refunds_create", args));
    const proposal = await call(agent, "service_refunds_create", { ...args, confirmationToken: token });
    expect(proposal.structuredContent).toMatchObject({ amount, status: "requires_approval" });
    expect(texts(proposal)[1]).toMatch(/^Proposed, not sent: every owner was emailed/);
    expect(await refundRows(organization.id)).toEqual([
      {
        id: (proposal.structuredContent as { id: string }).id,
        status: "REQUIRES_APPROVAL",
        amount: expect.anything(),
      },
    ]);
  });

  it.each([
    ["an unknown payer (a mint from the zero address)", "payer", "no_payer_address"],
    ["a destination that is neither payer, claim nor an address", "buyer", "parameter_invalid"],
  ])("refuses %s before any preview", async (_name, destination, code) => {
    const { organization } = await createTestOrganization("Mint Shop");
    const invoice = await createTestPaidInvoice(organization.id, {
      amount: "40",
      payments: [{ amount: "40", fromAddress: "0x0000000000000000000000000000000000000000" }],
    });
    const agent = await agentOf(organization.id);
    const result = await call(agent, "service_refunds_create", { invoiceId: invoice.id, destination });
    expect(errorCode(result)).toBe(code);
    expect(await refundRows(organization.id)).toEqual([]);
  });
});

describe("service_refunds_create by a member's OAuth token", () => {
  it("is refused as owner territory and refunds nothing", async () => {
    const { organization } = await createTestOrganization("Member Shop");
    const invoice = await createTestPaidInvoice(organization.id, {
      amount: "40",
      payments: [{ amount: "40", fromAddress: payer }],
    });
    const member = await db().user.create({
      data: { id: newId("user"), email: `member-${newId("user")}@example.com` },
    });
    await db().membership.create({
      data: { id: newId("membership"), organizationId: organization.id, userId: member.id, role: "MEMBER" },
    });
    const client = await connect(await oauthAccessToken(organization.id, member.id, "read write"));
    const result = await call(client, "service_refunds_create", {
      invoiceId: invoice.id,
      amount: "16",
      destination: "payer",
    });
    expect(errorCode(result)).toBe("owner_only");
    expect(await refundRows(organization.id)).toEqual([]);
    const listed = await call(client, "service_refunds_list", {});
    expect(listed.structuredContent).toMatchObject({ object: "list", total: 0 });
  });
});
