import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { config } from "@/lib/config";
import { db } from "@/lib/db/client";
import { appRoutes } from "@/scripts/test-support/app-routes";
import { createTestOrganization } from "@/scripts/test-support/fixtures";
import { connectLocalKit, kitEnv, runKitJson } from "@/scripts/test-support/kit-env";
import { createTestPaidInvoice } from "@/scripts/test-support/refund-fixtures";
import { serveApp } from "@/scripts/test-support/serve-route";

// The agent kit's refund command and local MCP tool against the app's own routes and database:
// the kit adds no API of its own, so what it sends must be what REST takes.

const payer = "0x70997970C51812dc3A010C7d01b50e0d17dc79C8";
// Each call starts a process; the machine is shared.
vi.setConfig({ testTimeout: 120_000 });

let app: Awaited<ReturnType<typeof serveApp>>;
let configHome: string;
let env: Record<string, string>;
let organizationId: string;

beforeAll(async () => {
  app = await serveApp(await appRoutes(), config().baseUrl);
  configHome = await mkdtemp(path.join(tmpdir(), "kit-refunds-"));
  const { organization, apiKey } = await createTestOrganization("Kit Refund Shop");
  organizationId = organization.id;
  env = kitEnv(configHome, app.url, apiKey);
});

afterAll(async () => {
  await app.close();
  await rm(configHome, { recursive: true, force: true });
});

const kit = (args: string[]) => runKitJson(env, args);

const paidInvoice = () =>
  createTestPaidInvoice(organizationId, { amount: "40", payments: [{ amount: "40", fromAddress: payer }] });

describe("crypto-checkout refunds:*", () => {
  it("creates a refund to the payer, lists it by invoice and reads it back", async () => {
    const invoice = await paidInvoice();
    const created = await kit([
      "refunds:create",
      "--invoice",
      invoice.id,
      "--amount",
      "16",
      "--destination",
      "payer",
      "--reason",
      "Damaged",
      "--confirm",
    ]);
    expect(created.code).toBe(0);
    const { idempotencyKey, ...refund } = created.json;
    expect(refund).toMatchObject({
      object: "refund",
      invoiceId: invoice.id,
      amount: "16",
      destination: "payer",
      toAddress: payer,
      status: "pending",
      reason: "Damaged",
    });
    expect(idempotencyKey).toMatch(/^cc-agent-/);
    expect(await db().refund.count({ where: { invoiceId: invoice.id } })).toBe(1);

    const listed = await kit(["refunds:list", "--invoice", invoice.id, "--status", "pending"]);
    expect(listed).toMatchObject({ code: 0, json: { object: "list", total: 1, data: [refund] } });
    expect(await kit(["refunds:get", "--id", refund.id as string])).toEqual({ code: 0, json: refund });

    const over = await kit([
      "refunds:create",
      "--invoice",
      invoice.id,
      "--amount",
      "30",
      "--destination",
      "payer",
      "--confirm",
    ]);
    expect(over.code).toBe(4);
    expect(over.json).toMatchObject({ error: { code: "refund_exceeds_payment" } });
    expect(await db().refund.count({ where: { invoiceId: invoice.id } })).toBe(1);
  });
});

describe("crypto-checkout mcp: service_refunds_create", () => {
  it("refunds through REST only with the confirmation token of its preview, once", async () => {
    const invoice = await paidInvoice();
    const client = await connectLocalKit(env);
    try {
      await client.listTools();
      const args = { invoiceId: invoice.id, amount: "10", destination: "payer" };
      const preview = await client.callTool({ name: "service_refunds_create", arguments: args });
      const text = (preview.content as { text: string }[])[0].text;
      expect(text).toMatch(
        new RegExp(
          `^confirmation_required: Refund 10 USDC on devnet of invoice ${invoice.id} to the address that paid\\?`,
        ),
      );
      expect(await db().refund.count({ where: { invoiceId: invoice.id } })).toBe(0);
      const confirmationToken = /"confirmationToken": "(cct_[^"]+)"/.exec(text)?.[1];
      const done = await client.callTool({
        name: "service_refunds_create",
        arguments: { ...args, confirmationToken },
      });
      expect(done.structuredContent).toMatchObject({ amount: "10", toAddress: payer, status: "pending" });
      const replay = await client.callTool({
        name: "service_refunds_create",
        arguments: { ...args, confirmationToken },
      });
      expect((replay.content as { text: string }[])[0].text).toMatch(/^confirmation_used: /);
      expect(await db().refund.count({ where: { invoiceId: invoice.id } })).toBe(1);
      const listed = await client.callTool({
        name: "service_refunds_list",
        arguments: { invoiceId: invoice.id },
      });
      expect(listed.structuredContent).toMatchObject({ total: 1, data: [done.structuredContent] });
    } finally {
      await client.close();
    }
  });

  it("never hands a claim link to the model, though the kit's API key may read it", async () => {
    const invoice = await paidInvoice();
    const created = await kit([
      "refunds:create",
      "--invoice",
      invoice.id,
      "--amount",
      "5",
      "--destination",
      "claim",
      "--confirm",
    ]);
    // The command line is the merchant's own: with the API key it shows the link to pass on.
    const token = String(created.json.claimUrl).split("/").pop() as string;
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const client = await connectLocalKit(env);
    try {
      for (const [name, args] of [
        ["service_refunds_get", { id: created.json.id }],
        ["service_refunds_list", { invoiceId: invoice.id }],
      ] as const) {
        const answer = await client.callTool({ name, arguments: args });
        expect(JSON.stringify(answer)).toContain(created.json.id as string);
        expect({ name, seesToken: JSON.stringify(answer).includes(token) }).toEqual({
          name,
          seesToken: false,
        });
      }
    } finally {
      await client.close();
    }
  });
});
