import { readFileSync } from "node:fs";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { serverInstructions, type ToolName, toolsFor } from "../catalog";
import { registerKnowledge } from "../catalog/knowledge";
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
  // The service's own URL for the guides: the API base without its /api suffix.
  const baseUrl = kit.settings.apiBaseUrl.replace(/\/api$/, "");

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

  for (const tool of toolsFor(access, "local")) {
    server.registerTool(
      tool.name,
      {
        title: tool.title,
        description: tool.description,
        inputSchema: tool.inputSchema,
        outputSchema: tool.outputSchema,
        annotations: { title: tool.title, ...tool.annotations },
      },
      (input: Record<string, unknown>) => callLocalTool(tool.name as ToolName, input, context),
    );
  }

  registerKnowledge(server, { baseUrl });
  return server;
}
