import { createHmac } from "node:crypto";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { knowledgeResources, prompts, tools, toolsFor } from "../catalog";
import { describeTool } from "../catalog/describe-tool";

// `crypto-checkout mcp` as a client sees it: the official SDK client over stdio, against the
// real process. The end-to-end calls against a running app are in e2e/agent-kit.spec.ts.

const root = path.resolve(import.meta.dirname, "../../../..");
let client: Client;
let configHome: string;
const secret = "whsec_local_server_test";

beforeAll(async () => {
  configHome = await mkdtemp(path.join(tmpdir(), "kit-mcp-"));
  client = new Client({ name: "local-server-test", version: "1.0.0" });
  await client.connect(
    new StdioClientTransport({
      command: process.execPath,
      args: [
        path.join(root, "node_modules/tsx/dist/cli.mjs"),
        path.join(import.meta.dirname, "../cli.ts"),
        "mcp",
      ],
      env: {
        PATH: process.env.PATH ?? "",
        HOME: configHome,
        SERVICE_CONFIG_HOME: configHome,
        SERVICE_API_BASE_URL: "http://127.0.0.1:9/api",
        SERVICE_WEBHOOK_SECRET: secret,
      },
      stderr: "pipe",
    }),
  );
}, 60_000);
afterAll(async () => {
  await client?.close();
  await rm(configHome, { recursive: true, force: true });
});

describe("crypto-checkout mcp", () => {
  it("lists the remote tools plus the local helpers, with the catalogue's schemas and annotations", async () => {
    const listed = (await client.listTools()).tools;
    const remote = toolsFor("write", "remote").map((tool) => tool.name);
    const localOnly = tools.filter((tool) => tool.scope === "local-only").map((tool) => tool.name);
    expect(localOnly.sort()).toEqual(
      ["service_agent_checkin", "service_agent_setup", "service_webhooks_verify_signature"].sort(),
    );
    expect(listed.map((tool) => tool.name).sort()).toEqual([...remote, ...localOnly].sort());
    for (const tool of tools) {
      // The remote server lists each tool through the same describeTool.
      expect(listed.find((candidate) => candidate.name === tool.name)).toEqual(describeTool(tool));
    }
  });

  it("serves the catalogue's resources and prompts", async () => {
    const resources = (await client.listResources()).resources;
    expect(resources.map((resource) => resource.uri).sort()).toEqual(
      knowledgeResources.map((resource) => resource.uri).sort(),
    );
    const quickstart = await client.readResource({ uri: "crypto-checkout://docs/quickstart" });
    expect(quickstart.contents[0]).toMatchObject({ mimeType: "text/markdown" });
    expect((await client.listPrompts()).prompts.map((prompt) => prompt.name).sort()).toEqual(
      prompts.map((prompt) => prompt.name).sort(),
    );
  });

  it.each([
    ["the signed body", '{"id":"evt_1"}', { valid: true, reason: null }],
    ["a tampered body", '{"id":"evt_2"}', { valid: false, reason: "signature_mismatch", timestamp: null }],
  ])("verifies a webhook signature locally: %s", async (_name, rawBody, expected) => {
    const t = Math.floor(Date.now() / 1000);
    const v1 = createHmac("sha256", secret).update(`${t}.{"id":"evt_1"}`).digest("hex");
    const result = await client.callTool({
      name: "service_webhooks_verify_signature",
      arguments: { rawBody, signatureHeader: `t=${t},v1=${v1}` },
    });
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent).toMatchObject(expected);
  });

  // The codes REST and the remote server answer (the shared serving layer, ./serve-tools.ts).
  it.each([
    [
      "a missing argument",
      { name: "service_paylinks_get", arguments: {} },
      /^parameter_missing: Missing required parameter: id\. /,
    ],
    ["an unknown argument", { name: "service_auth_status", arguments: { x: 1 } }, /^parameter_unknown: /],
    [
      "a wrong type",
      { name: "service_paylinks_get", arguments: { id: 1 } },
      /^parameter_invalid: Invalid id: /,
    ],
  ])("refuses %s with an error result and calls nothing", async (_name, call, text) => {
    const result = await client.callTool(call);
    expect(result.isError).toBe(true);
    expect((result.content as { text: string }[])[0].text).toMatch(text);
  });

  it("answers without a credential with an error result in the REST error's words", async () => {
    const result = await client.callTool({ name: "service_auth_status", arguments: {} });
    expect(result.isError).toBe(true);
    expect((result.content as { text: string }[])[0].text).toMatch(/^not_authenticated: No credential/);
  });
});
