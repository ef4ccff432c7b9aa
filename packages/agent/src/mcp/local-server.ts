import { readFileSync } from "node:fs";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import {
  knowledgeResources,
  prompts,
  readKnowledgeResource,
  serverInstructions,
  type ToolName,
  toolsFor,
} from "../catalog";
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

  for (const resource of knowledgeResources) {
    server.registerResource(
      resource.name,
      resource.uri,
      { title: resource.title, description: resource.description, mimeType: "text/markdown" },
      (uri) => ({
        contents: [
          { uri: uri.href, mimeType: "text/markdown", text: readKnowledgeResource(resource, { baseUrl }) },
        ],
      }),
    );
  }

  for (const prompt of prompts) {
    server.registerPrompt(
      prompt.name,
      { title: prompt.title, description: prompt.description, argsSchema: prompt.argsSchema },
      (args: Record<string, string | undefined>) => ({
        description: prompt.description,
        messages: [
          {
            role: "user",
            content: { type: "text", text: prompt.text(args).replaceAll("{base_url}", baseUrl) },
          },
          ...knowledgeResources
            .filter((resource) => prompt.resources.includes(resource.name))
            .map((resource) => ({
              role: "user" as const,
              content: {
                type: "resource" as const,
                resource: {
                  uri: resource.uri,
                  mimeType: "text/markdown",
                  text: readKnowledgeResource(resource, { baseUrl }),
                },
              },
            })),
        ],
      }),
    );
  }
  return server;
}
