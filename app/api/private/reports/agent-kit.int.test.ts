import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { config } from "@/lib/config";
import { type AppRoute, appRoutes } from "@/scripts/test-support/app-routes";
import { createTestOrganization } from "@/scripts/test-support/fixtures";
import { connectLocalKit, kitEnv, runKitJson } from "@/scripts/test-support/kit-env";
import { createTestPaidInvoice, createTestRefund } from "@/scripts/test-support/refund-fixtures";
import { serveApp } from "@/scripts/test-support/serve-route";
import { DELETE, GET, POST } from "../../../mcp/route";

// The payments and refunds reports through the agent kit's commands and both MCP servers, against
// the app's own routes and database: a command writes REST's CSV to a file, a tool answers a page
// of rows and names the CSV's link.

const payer = "0x70997970C51812dc3A010C7d01b50e0d17dc79C8";
// Each call starts a process; the machine is shared.
vi.setConfig({ testTimeout: 120_000 });

const day = 86_400_000;
const from = new Date(Date.now() - day).toISOString().slice(0, 10);
const to = new Date(Date.now() + 2 * day).toISOString().slice(0, 10);

let app: Awaited<ReturnType<typeof serveApp>>;
let configHome: string;
let env: Record<string, string>;
let apiKey: string;
/** Each report's rows in the range, by id in time order: three paid invoices, three refunds. */
const ids: Record<"payments" | "refunds", string[]> = { payments: [], refunds: [] };

beforeAll(async () => {
  app = await serveApp(
    [...(await appRoutes()), { template: "/mcp", handlers: { GET, POST, DELETE } as AppRoute["handlers"] }],
    config().baseUrl,
  );
  configHome = await mkdtemp(path.join(tmpdir(), "kit-reports-"));
  const merchant = await createTestOrganization("Kit Books Shop");
  apiKey = merchant.apiKey;
  env = kitEnv(configHome, app.url, apiKey);
  for (const amount of ["3", "4", "5"]) {
    const invoice = await createTestPaidInvoice(merchant.organization.id, {
      amount,
      payments: [{ amount, fromAddress: payer }],
    });
    ids.payments.push(invoice.id);
    const refund = await createTestRefund(invoice, { amount: "1", status: "PENDING", toAddress: payer });
    ids.refunds.push(refund.id);
  }
});

afterAll(async () => {
  await app.close();
  await rm(configHome, { recursive: true, force: true });
});

const kit = (args: string[]) => runKitJson(env, args, configHome);

const restCsv = async (report: string) => {
  const response = await fetch(`${app.url}/api/private/reports/${report}?from=${from}&to=${to}&format=csv`, {
    headers: { authorization: `Bearer ${apiKey}` },
  });
  expect(response.status).toBe(200);
  return response.text();
};

describe.each(["payments", "refunds"] as const)("crypto-checkout reports:%s", (report) => {
  it("writes the range's CSV to --out, or to the name the service gives", async () => {
    const csv = await restCsv(report);
    expect(csv.split("\r\n")).toHaveLength(5);
    for (const id of ids[report]) expect(csv).toContain(id);
    const out = path.join(configHome, `books-${report}.csv`);
    const written = await kit([`reports:${report}`, "--from", from, "--to", to, "--out", out]);
    expect(written).toEqual({
      code: 0,
      json: { object: "report_file", report, file: out, bytes: Buffer.byteLength(csv) },
    });
    expect(await readFile(out, "utf8")).toBe(csv);

    const named = await kit([`reports:${report}`, "--from", from, "--to", to]);
    const file = path.join(configHome, `${report}_${from}_${to}.csv`);
    expect(named).toMatchObject({ code: 0, json: { file } });
    expect(await readFile(file, "utf8")).toBe(csv);
  });

  it("exits 4 with the service's error for a bad range, writing nothing", async () => {
    const out = path.join(configHome, `never-${report}.csv`);
    const refused = await kit([`reports:${report}`, "--from", to, "--to", from, "--out", out]);
    expect(refused).toMatchObject({
      code: 4,
      json: { error: { type: "invalid_request_error", param: "to" } },
    });
    await expect(readFile(out)).rejects.toThrow();
  });
});

describe.each([
  ["payments", "invoice_id"],
  ["refunds", "refund_id"],
] as const)("service_reports_%s", (report, idColumn) => {
  const tool = `service_reports_${report}`;
  it("answers a page of rows alike on both servers, and names the CSV link", async () => {
    const remote = new Client({ name: "reports-test", version: "1.0.0" });
    await remote.connect(
      new StreamableHTTPClientTransport(new URL(`${app.url}/mcp`), {
        requestInit: { headers: { authorization: `Bearer ${apiKey}` } },
      }),
    );
    const local = await connectLocalKit(env);
    try {
      const args = { from, to, rows: 2 };
      const [fromRemote, fromLocal] = await Promise.all([
        remote.callTool({ name: tool, arguments: args }),
        local.callTool({ name: tool, arguments: args }),
      ]);
      expect(fromRemote.structuredContent).toMatchObject({
        object: "list",
        total: 3,
        rows: 2,
        hasMore: true,
      });
      const rows = (fromRemote.structuredContent as { data: Record<string, string>[] }).data;
      expect(rows.map((row) => row[idColumn])).toEqual(ids[report].slice(0, 2));
      expect(rows[0][report === "payments" ? "payer_address" : "to_address"]).toBe(payer);
      expect(fromLocal.structuredContent).toEqual(fromRemote.structuredContent);
      for (const result of [fromRemote, fromLocal]) {
        const note = (result.content as { text: string }[])[1].text;
        expect(note).toContain("3 rows in the range. More rows: call again with page 2");
        expect(note).toMatch(
          new RegExp(
            `GET https?://[^ ]+/api/private/reports/${report}\\?from=${from}&to=${to}&format=csv with the API key`,
          ),
        );
      }
      const tooMany = await remote.callTool({
        name: tool,
        arguments: { from, to, rows: 101 },
      });
      expect(tooMany.isError).toBe(true);
    } finally {
      await Promise.all([remote.close(), local.close()]);
    }
  });
});
