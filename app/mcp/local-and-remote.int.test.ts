import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { toolsFor } from "crypto-checkout-agent/catalog";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { config } from "@/lib/config";
import { type AppRoute, appRoutes } from "@/scripts/test-support/app-routes";
import { createTestOrganization } from "@/scripts/test-support/fixtures";
import { kitEnv } from "@/scripts/test-support/kit-env";
import { toolListFindings } from "@/scripts/test-support/schema-portability";
import { serveApp } from "@/scripts/test-support/serve-route";
import { DELETE, GET, POST } from "./route";

// The remote /mcp and the local `crypto-checkout mcp` share one serving layer (the agent kit's
// src/mcp/serve-tools.ts). Here both serve one organization with its API key, the local server
// through the REST API beside /mcp, and the same bad call gets the same error result from each,
// but for the request id. No schema either lists has a finding of the MCP Inspector's portability
// check (its rules in scripts/test-support/schema-portability.ts).

const root = path.resolve(import.meta.dirname, "../..");
const tsx = path.join(root, "node_modules/tsx/dist/cli.mjs");
const cli = path.join(root, "packages/agent/src/cli.ts");
const unknownUuid = "6f1c1c8e-7d5a-4c63-9d53-2a3b9b1e0c11";

let app: Awaited<ReturnType<typeof serveApp>>;
let configHome: string;
let remote: Client;
let local: Client;

beforeAll(async () => {
  app = await serveApp(
    [...(await appRoutes()), { template: "/mcp", handlers: { GET, POST, DELETE } as AppRoute["handlers"] }],
    config().baseUrl,
  );
  configHome = await mkdtemp(path.join(tmpdir(), "kit-local-remote-"));
  const { apiKey } = await createTestOrganization("Both Doors Shop");
  remote = new Client({ name: "local-and-remote-test", version: "1.0.0" });
  await remote.connect(
    new StreamableHTTPClientTransport(new URL(`${app.url}/mcp`), {
      requestInit: { headers: { authorization: `Bearer ${apiKey}` } },
    }),
  );
  local = new Client({ name: "local-and-remote-test", version: "1.0.0" });
  await local.connect(
    new StdioClientTransport({
      command: process.execPath,
      args: [tsx, cli, "mcp"],
      env: kitEnv(configHome, app.url, apiKey),
      stderr: "pipe",
    }),
  );
});

afterAll(async () => {
  await Promise.all([remote?.close(), local?.close()]);
  await app?.close();
  await rm(configHome, { recursive: true, force: true });
});

/** The error result's text without its request id, which only the remote server's own errors carry. */
async function errorText(client: Client, name: string, args: Record<string, unknown>) {
  const result = await client.callTool({ name, arguments: args });
  expect(result.isError).toBe(true);
  return (result.content as { text: string }[])[0].text.replace(/ Request id: \S+\.$/, "");
}

describe("the remote and the local MCP server", () => {
  it("list the same schemas for the tools both serve", async () => {
    const remoteTools = (await remote.listTools()).tools;
    const localTools = new Map((await local.listTools()).tools.map((tool) => [tool.name, tool]));
    expect(remoteTools.map((tool) => tool.name)).toEqual(
      toolsFor("write", "remote").map((tool) => tool.name),
    );
    expect([...localTools.keys()]).toEqual(toolsFor("write", "local").map((tool) => tool.name));
    // The MCP Apps payment card (`_meta.ui`) is served by the app, so only the remote links it.
    for (const { _meta, ...tool } of remoteTools) expect(localTools.get(tool.name)).toEqual(tool);
  });

  it.each<[string, string, Record<string, unknown>, string]>([
    ["a missing argument", "service_paylinks_get", {}, "parameter_missing"],
    ["an unknown argument", "service_auth_status", { extra: 1 }, "parameter_unknown"],
    ["a wrong type", "service_paylinks_get", { id: 1 }, "parameter_invalid"],
    [
      "a value outside the enum",
      "service_paylinks_create",
      { name: "P", amount: "1", currency: "DOGE" },
      "parameter_invalid",
    ],
    ["too many rows", "service_paylinks_list", { rows: 101 }, "parameter_invalid"],
    [
      "a NUL character",
      "service_webhooks_create",
      { name: "W\u0000", url: "https://example.com/hooks" },
      "parameter_invalid",
    ],
    ["an unknown paylink", "service_paylinks_get", { id: unknownUuid }, "resource_missing"],
    [
      "a forged confirmation token",
      "service_settlement_configure",
      { settlementWallets: [], confirmationToken: "cct_forged.sig" },
      "confirmation_invalid",
    ],
  ])("answer %s alike", async (_case, name, args, code) => {
    const fromRemote = await errorText(remote, name, args);
    expect(fromRemote.split(":")[0]).toBe(code);
    expect(await errorText(local, name, args)).toBe(fromRemote);
  });

  it("answer a tool that passes through to its REST operation as the remote server does", async () => {
    const data = async (client: Client, name: string, args: Record<string, unknown>) => {
      const result = await client.callTool({ name, arguments: args });
      expect(result.isError).toBeFalsy();
      return result;
    };
    // Body, path parameter and query, each where the operation's contract takes it.
    const created = (
      await data(local, "service_paylinks_create", { name: "Mug", amount: "12.50", currency: "EUR" })
    ).structuredContent as { id: string };
    const edited = await data(local, "service_paylinks_edit", { id: created.id, name: "Big mug" });
    expect(edited.structuredContent).toMatchObject({ id: created.id, name: "Big mug", amount: "12.50" });
    for (const [name, args] of [
      ["service_paylinks_get", { id: created.id }],
      ["service_paylinks_list", { rows: 1 }],
      ["service_transactions_list", {}],
    ] as const) {
      const [fromLocal, fromRemote] = await Promise.all([data(local, name, args), data(remote, name, args)]);
      expect(fromLocal.structuredContent).toEqual(fromRemote.structuredContent);
      // A page says in words whether there is more, as the remote's does.
      expect(fromLocal.content).toEqual(fromRemote.content);
    }
  });

  it("refuse an unknown tool alike, as a protocol error", async () => {
    const call = (client: Client) => client.callTool({ name: "service_nothing", arguments: {} });
    await expect(call(remote)).rejects.toThrow("Unknown tool: service_nothing");
    await expect(call(local)).rejects.toThrow("Unknown tool: service_nothing");
  });
});

describe("tool schemas every major model provider accepts", () => {
  it.each([
    ["the remote server", () => remote],
    ["the local server", () => local],
  ])("%s lists none the MCP Inspector's strict check would warn about", async (_server, client) => {
    expect(toolListFindings((await client().listTools()).tools)).toEqual([]);
  });
});
