import { readFileSync } from "node:fs";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import {
  CallToolRequestSchema,
  type CallToolResult,
  ErrorCode,
  ListToolsRequestSchema,
  McpError,
  type Tool,
} from "@modelcontextprotocol/sdk/types.js";
import { serverInstructions, type ToolName, toolError, toolsFor } from "../catalog";
import { describeTool } from "../catalog/describe-tool";
import { registerKnowledge } from "../catalog/knowledge";
import { serviceBaseUrl } from "../config/base-url";
import type { Kit } from "../context";
import { callLocalTool, type ToolContext } from "./local-tools";

const { version } = JSON.parse(readFileSync(new URL("../../package.json", import.meta.url), "utf8")) as {
  version: string;
};

/**
 * `crypto-checkout mcp`: the catalogue's tools, resources and prompts, as the remote /mcp serves
 * them, for the access of the stored credential (an API key may write), plus the local helpers.
 */
export async function buildLocalServer(kit: Kit): Promise<McpServer> {
  const server = new McpServer({ name: "crypto-checkout", version }, { instructions: serverInstructions });
  const stored = (await kit.readConfig()).credential;
  const access = stored?.apiBaseUrl === kit.settings.apiBaseUrl ? stored.access : "write";
  // The service's own URL for the guides.
  const baseUrl = serviceBaseUrl(kit.settings.apiBaseUrl);

  const context: ToolContext = {
    kit,
    askUser: async (message) => {
      if (!server.server.getClientCapabilities()?.elicitation) return null;
      const answer = await server.server.elicitInput({
        message,
        requestedSchema: {
          type: "object",
          properties: { confirm: { type: "boolean", title: "Go ahead?" } },
          required: ["confirm"],
        },
      });
      return answer.action === "accept" && answer.content?.confirm === true;
    },
  };

  // tools/list and tools/call by hand, as the remote server does, so both list the very same
  // schemas and answer bad arguments with the same kind of error result.
  const available = toolsFor(access, "local");
  const listing = available.map(describeTool) as Tool[];
  server.server.registerCapabilities({ tools: {} });
  server.server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: listing }));
  server.server.setRequestHandler(CallToolRequestSchema, async (request) => {
    const tool = available.find((candidate) => candidate.name === request.params.name);
    if (!tool) throw new McpError(ErrorCode.InvalidParams, `Unknown tool: ${request.params.name}`);
    const parsed = tool.inputSchema.safeParse(request.params.arguments ?? {});
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      const param = issue.path.join(".") || undefined;
      return toolError({
        error: {
          code: "parameter_invalid",
          message: param ? `Invalid ${param}: ${issue.message}` : issue.message,
          param,
        },
      }) as CallToolResult;
    }
    return (await callLocalTool(tool.name as ToolName, parsed.data, context)) as CallToolResult;
  });

  registerKnowledge(server, { baseUrl });
  return server;
}
