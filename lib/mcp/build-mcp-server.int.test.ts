import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { toolsFor } from "crypto-checkout-agent/catalog";
import { describe, expect, it } from "vitest";
import { db } from "@/lib/db/client";
import { createTestOrganization } from "@/scripts/test-support/fixtures";
import { buildMcpServer } from "./build-mcp-server";

async function connectAs(organizationId: string, access: "read" | "write") {
  const server = buildMcpServer({
    db: db(),
    caller: {
      organizationId,
      credential: { kind: "agent", id: "agc_test" },
      access,
      role: "owner",
      name: "test agent",
    },
    requestId: "req_test",
  });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const client = new Client({ name: "read-only-test", version: "1.0.0" });
  await client.connect(clientSide);
  return client;
}

describe("a read-only caller", () => {
  it("sees only the read tools", async () => {
    const { organization } = await createTestOrganization();
    const { tools } = await (await connectAs(organization.id, "read")).listTools();
    expect(tools.map((tool) => tool.name)).toEqual(toolsFor("read", "remote").map((tool) => tool.name));
    expect(tools.every((tool) => tool.annotations?.readOnlyHint === true)).toBe(true);
    const all = await (await connectAs(organization.id, "write")).listTools();
    expect(all.tools).toHaveLength(31);
  });

  it.each([
    ["service_paylinks_create", { name: "P", amount: "1", currency: "USD" }],
    ["service_organization_update", { name: "Renamed" }],
    ["service_webhooks_create", { name: "W", url: "https://example.com/hooks" }],
  ])("gets insufficient_access from %s and changes nothing", async (name, args) => {
    const { organization } = await createTestOrganization("Read Only Store");
    const client = await connectAs(organization.id, "read");
    const result = await client.callTool({ name, arguments: args });
    expect(result.isError).toBe(true);
    expect((result.content as { text: string }[])[0].text).toMatch(
      /^insufficient_access: .* Request id: req_test\.$/,
    );
    expect(await db().paylink.count({ where: { organizationId: organization.id } })).toBe(0);
    expect(await db().webhookEndpoint.count({ where: { organizationId: organization.id } })).toBe(0);
    expect((await db().organization.findUniqueOrThrow({ where: { id: organization.id } })).name).toBe(
      "Read Only Store",
    );
  });

  it("still reads", async () => {
    const { organization } = await createTestOrganization();
    const result = await (await connectAs(organization.id, "read")).callTool({ name: "service_auth_status" });
    expect(result.structuredContent).toMatchObject({ organization: { id: organization.id }, access: "read" });
  });
});

describe("a write agent", () => {
  // What receipts say of the merchant is the owners' and the API key's (receipts.configure): the
  // tool has no such arguments, and an agent's call with one changes nothing.
  it.each([
    ["legalName", "Evil Ltd"],
    ["legalAddress", "Elsewhere 1"],
    ["taxId", "XX1"],
    ["supportEmail", "pay@evil.example"],
    ["receiptEmails", false],
  ])("cannot set %s with service_organization_update", async (field, value) => {
    const { organization } = await createTestOrganization("Agent Store");
    const client = await connectAs(organization.id, "write");
    const result = await client.callTool({
      name: "service_organization_update",
      arguments: { name: "Renamed", [field]: value },
    });
    expect(result.isError).toBe(true);
    expect((result.content as { text: string }[])[0].text).toContain(field);
    expect(await db().organization.findUniqueOrThrow({ where: { id: organization.id } })).toMatchObject({
      name: "Agent Store",
      legalName: null,
      legalAddress: null,
      taxId: null,
      supportEmail: null,
      receiptEmails: true,
    });
  });
});
