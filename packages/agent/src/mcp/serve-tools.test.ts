import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { ElicitRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { type ToolDefinition, toolResult } from "../catalog";
import { type ConfirmationStep, serveTools } from "./serve-tools";

// The serving layer between the official SDK's client and server, over two tools of its own: a
// read that a "read" caller may call, and a destructive write that asks first. What each call
// did is recorded, so a refused call can be shown to have done nothing.

const annotations = {
  readOnlyHint: false,
  destructiveHint: true,
  idempotentHint: true,
  openWorldHint: false,
};
const readTool: ToolDefinition = {
  name: "test_read",
  title: "Read",
  description: "Reads a thing by its id, for the serving layer's test.",
  inputSchema: z.strictObject({ id: z.string().max(8) }),
  outputSchema: z.object({ id: z.string() }),
  annotations: { ...annotations, readOnlyHint: true, destructiveHint: false },
  access: "read",
  scope: "remote-and-local",
};
const dropTool: ToolDefinition = {
  ...readTool,
  name: "test_drop",
  title: "Drop",
  description: "Drops a thing by its id after the user agreed, for the serving layer's test.",
  inputSchema: z.strictObject({ id: z.string(), confirmationToken: z.string().optional() }),
  outputSchema: z.object({ dropped: z.string() }),
  annotations,
  access: "write",
  confirmation: true,
};

type Elicited = { action: "accept" | "decline"; content?: { confirm: boolean } };

/**
 * A client connected to a server of the two tools. With `answer`, the client can be asked
 * (elicitation) and answers so; `markDrop: false` leaves test_drop unmarked in the catalogue.
 */
async function connect(options: { access: "read" | "write"; answer?: Elicited; markDrop?: boolean }) {
  const done: string[] = [];
  const asked: string[] = [];
  const steps: ConfirmationStep[] = [];
  const server = new McpServer({ name: "test", version: "1.0.0" });
  const askUser = async (message: string) => {
    if (!server.server.getClientCapabilities()?.elicitation) return null;
    const reply = await server.server.elicitInput({
      message,
      requestedSchema: {
        type: "object",
        properties: { confirm: { type: "boolean" } },
        required: ["confirm"],
      },
    });
    return reply.action === "accept" && reply.content?.confirm === true;
  };
  serveTools(server.server, {
    tools: [readTool, options.markDrop === false ? { ...dropTool, confirmation: undefined } : dropTool],
    authorize: (tool) => {
      if (tool.access === "write" && options.access === "read") throw new Error("read only");
      return options.access;
    },
    run: async ({ tool, input, confirm }) => {
      if (tool.name === "test_read") return toolResult({ id: String(input.id) });
      const step = await confirm(`Drop ${input.id}?`, { id: input.id });
      steps.push(step);
      if (!step.proceed) return step.result;
      done.push(`dropped ${input.id}`);
      return toolResult({ dropped: String(input.id) });
    },
    envelopeOf: (error) => ({ error: { code: "refused", message: (error as Error).message } }),
    requestId: "req_1",
    confirmation: { key: () => Buffer.alloc(32, 1), subject: () => "org_1:key_1", askUser },
  });
  const { answer } = options;
  const client = new Client(
    { name: "test", version: "1.0.0" },
    { capabilities: answer ? { elicitation: {} } : {} },
  );
  if (answer) {
    client.setRequestHandler(ElicitRequestSchema, async (request) => {
      asked.push(request.params.message);
      return answer;
    });
  }
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  await client.connect(clientSide);
  return { client, done, asked, steps };
}

const textOf = (result: Awaited<ReturnType<Client["callTool"]>>) =>
  (result.content as { text: string }[])[0].text;

describe("serveTools", () => {
  it.each<["read" | "write", string[]]>([
    ["read", ["test_read"]],
    ["write", ["test_read", "test_drop"]],
  ])("lists to a %s caller only the tools it may call", async (access, names) => {
    const { client } = await connect({ access });
    expect((await client.listTools()).tools.map((tool) => tool.name)).toEqual(names);
  });

  it.each<[string, string, Record<string, unknown>, "read" | "write", RegExp]>([
    [
      "a missing argument",
      "test_read",
      {},
      "write",
      /^parameter_missing: Missing required parameter: id\. \(parameter: id\) Request id: req_1\.$/,
    ],
    [
      "an unknown argument",
      "test_read",
      { id: "a", x: 1 },
      "write",
      /^parameter_unknown: Received unknown parameter: x\. \(parameter: x\) Request id: req_1\.$/,
    ],
    [
      "a value too long",
      "test_read",
      { id: "123456789" },
      "write",
      /^parameter_invalid: Invalid id: .* req_1\.$/,
    ],
    [
      "a NUL character",
      "test_read",
      { id: "a\u0000" },
      "write",
      /^parameter_invalid: Invalid id: must not contain NUL/,
    ],
    ["a refused caller", "test_drop", { id: "a" }, "read", /^refused: read only$/],
  ])("answers %s with an error result and runs nothing", async (_case, name, args, access, text) => {
    const { client, done } = await connect({ access });
    const result = await client.callTool({ name, arguments: args });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(text);
    expect(done).toEqual([]);
  });

  it("refuses an unknown tool as a protocol error", async () => {
    const { client } = await connect({ access: "write" });
    await expect(client.callTool({ name: "test_other", arguments: {} })).rejects.toThrow(
      "Unknown tool: test_other",
    );
  });

  it("without a way to ask, acts only on the second call carrying the preview's token, once per token in the caller's record", async () => {
    const { client, done, steps } = await connect({ access: "write" });
    const preview = await client.callTool({ name: "test_drop", arguments: { id: "a" } });
    expect(textOf(preview)).toMatch(/^confirmation_required: Drop a\? Show this to the user/);
    expect(done).toEqual([]);
    const token = /"confirmationToken": "(cct_[^"]+)"/.exec(textOf(preview))?.[1];
    const other = await client.callTool({
      name: "test_drop",
      arguments: { id: "b", confirmationToken: token },
    });
    expect(textOf(other)).toMatch(/^confirmation_mismatch: /);
    const acted = await client.callTool({
      name: "test_drop",
      arguments: { id: "a", confirmationToken: token },
    });
    expect(acted.structuredContent).toEqual({ dropped: "a" });
    expect(done).toEqual(["dropped a"]);
    expect(steps.at(-1)).toEqual({ proceed: true, token });
  });

  it.each<[string, Elicited, RegExp, string[]]>([
    ["yes", { action: "accept", content: { confirm: true } }, /^\{/, ["dropped a"]],
    ["no", { action: "accept", content: { confirm: false } }, /^confirmation_declined: /, []],
    ["a declined form", { action: "decline" }, /^confirmation_declined: /, []],
  ])(
    "asks the user through the client first and takes %s as the answer",
    async (_case, answer, text, done) => {
      const { client, asked, done: acted, steps } = await connect({ access: "write", answer });
      const result = await client.callTool({ name: "test_drop", arguments: { id: "a" } });
      expect(textOf(result)).toMatch(text);
      expect(asked).toEqual(["Drop a?"]);
      expect(acted).toEqual(done);
      // A yes in the client leaves no token to record.
      if (done.length) expect(steps).toEqual([{ proceed: true, token: null }]);
    },
  );

  it("refuses a confirmation asked for by a tool the catalogue does not mark as asking first", async () => {
    const { client, done } = await connect({ access: "write", markDrop: false });
    const result = await client.callTool({ name: "test_drop", arguments: { id: "a" } });
    expect(textOf(result)).toBe("refused: test_drop is not marked as needing confirmation");
    expect(done).toEqual([]);
  });
});
