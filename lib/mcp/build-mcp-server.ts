import path from "node:path";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import {
  CallToolRequestSchema,
  type CallToolResult,
  ErrorCode,
  ListToolsRequestSchema,
  McpError,
  type Tool,
} from "@modelcontextprotocol/sdk/types.js";
import { z } from "zod";
import {
  knowledgeResources,
  prompts,
  readKnowledgeResource,
  serverInstructions,
  type ToolDefinition,
  toolError,
  toolsFor,
} from "../../packages/agent/src/catalog";
import { config } from "../config";
import type { Db } from "../db/client";
import { toServiceError } from "../http/error-response";
import { parseOrThrow } from "../http/validation-error";
import type { MerchantCaller } from "../merchant-auth/authenticate-merchant";
import { confirmationKey } from "./confirmation-key";
import { paymentAppHtml, paymentAppMimeType, paymentAppUri, qrMetaKey, qrSvg } from "./payment-app";
import { toolHandlers } from "./tool-handlers";

// One MCP server per request (the transport is stateless): tools from the shared catalogue,
// filtered by the caller's access, with handlers over the REST routes' domain functions; the
// knowledge resources and prompts of the catalogue.

// The Markdown ships in the repository beside the catalogue; bundling moves modules, not files.
const resourceDirectory = () => path.join(process.cwd(), "packages/agent/src/catalog/resources");

const jsonSchema = (schema: z.ZodType) =>
  z.toJSONSchema(schema, { target: "draft-7", io: "input" }) as Tool["inputSchema"];

/** Tools whose result the payment app shows (price, QR code, live status) in clients with MCP Apps. */
const appTools = new Set([
  "service_checkout_sessions_create",
  "service_checkout_sessions_get",
  "service_paylinks_create",
  "service_paylinks_get",
]);

function describeTool(tool: ToolDefinition): Tool {
  return {
    ...(appTools.has(tool.name) ? { _meta: { ui: { resourceUri: paymentAppUri } } } : {}),
    name: tool.name,
    title: tool.title,
    description: tool.description,
    inputSchema: jsonSchema(tool.inputSchema),
    outputSchema: jsonSchema(tool.outputSchema) as Tool["outputSchema"],
    annotations: { title: tool.title, ...tool.annotations },
  };
}

/** tools/list answers, computed once per access level. */
const listings = {
  read: toolsFor("read", "remote").map(describeTool),
  write: toolsFor("write", "remote").map(describeTool),
};

const allRemoteTools = new Map(toolsFor("write", "remote").map((tool) => [tool.name, tool]));

async function callTool(
  name: string,
  args: unknown,
  context: { db: Db; caller: MerchantCaller; requestId: string },
): Promise<CallToolResult> {
  const tool = allRemoteTools.get(name);
  if (!tool) throw new McpError(ErrorCode.InvalidParams, `Unknown tool: ${name}`);
  try {
    if (tool.access === "write" && context.caller.access !== "write") {
      return toolError({
        error: {
          code: "insufficient_scope",
          message: `${name} changes data, and this connection has read access only.`,
        },
        requestId: context.requestId,
      });
    }
    const input = parseOrThrow(tool.inputSchema, args ?? {});
    const handler = toolHandlers[name as keyof typeof toolHandlers] as (
      input: unknown,
      handlerContext: Parameters<(typeof toolHandlers)["service_auth_status"]>[1],
    ) => Promise<CallToolResult>;
    const result = await handler(input, { ...context, confirmationKey: confirmationKey() });
    const url = result.structuredContent?.url;
    if (appTools.has(name) && !result.isError && typeof url === "string") {
      return { ...result, _meta: { [qrMetaKey]: qrSvg(url) } };
    }
    return result;
  } catch (error) {
    const known = toServiceError(error, context.requestId);
    return toolError({
      error: { code: known.code, message: known.message, param: known.param },
      requestId: context.requestId,
    });
  }
}

export function buildMcpServer(context: { db: Db; caller: MerchantCaller; requestId: string }): McpServer {
  const baseUrl = config().baseUrl;
  const server = new McpServer(
    { name: "crypto-checkout", title: "Crypto Checkout", version: "1.0.0", websiteUrl: baseUrl },
    { capabilities: { tools: {} }, instructions: serverInstructions },
  );
  server.server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: listings[context.caller.access] }));
  server.server.setRequestHandler(CallToolRequestSchema, (request) =>
    callTool(request.params.name, request.params.arguments, context),
  );

  for (const resource of knowledgeResources) {
    server.registerResource(
      resource.name,
      resource.uri,
      { title: resource.title, description: resource.description, mimeType: "text/markdown" },
      (uri) => ({
        contents: [
          {
            uri: uri.href,
            mimeType: "text/markdown",
            text: readKnowledgeResource(resource, { baseUrl, directory: resourceDirectory() }),
          },
        ],
      }),
    );
  }

  server.registerResource(
    "payment-app",
    paymentAppUri,
    {
      title: "Payment card",
      description: "Price, QR code and live status of a paylink or checkout session (MCP Apps)",
      mimeType: paymentAppMimeType,
    },
    (uri) => ({ contents: [{ uri: uri.href, mimeType: paymentAppMimeType, text: paymentAppHtml() }] }),
  );

  for (const prompt of prompts) {
    server.registerPrompt(
      prompt.name,
      { title: prompt.title, description: prompt.description, argsSchema: prompt.argsSchema },
      (args: Record<string, string | undefined>) => ({
        messages: [
          {
            role: "user",
            content: { type: "text", text: prompt.text(args).replaceAll("{base_url}", baseUrl) },
          },
          ...prompt.resources.flatMap((name) =>
            knowledgeResources
              .filter((resource) => resource.name === name)
              .map((resource) => ({
                role: "user" as const,
                content: {
                  type: "resource" as const,
                  resource: {
                    uri: resource.uri,
                    mimeType: "text/markdown",
                    text: readKnowledgeResource(resource, { baseUrl, directory: resourceDirectory() }),
                  },
                },
              })),
          ),
        ],
      }),
    );
  }
  return server;
}
