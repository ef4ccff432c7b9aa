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
import {
  serverInstructions,
  type ToolDefinition,
  toolError,
  toolsFor,
} from "../../packages/agent/src/catalog";
import { describeTool } from "../../packages/agent/src/catalog/describe-tool";
import { registerKnowledge } from "../../packages/agent/src/catalog/knowledge";
import { config } from "../config";
import type { Db } from "../db/client";
import { toServiceError } from "../errors";
import type { MerchantCaller } from "../merchant-auth/authenticate-merchant";
import { parseOrThrow } from "../validation/validation-error";
import { confirmationKey } from "./confirmation-key";
import { paymentAppHtml, paymentAppMimeType, paymentAppUri, qrMetaKey, qrSvg } from "./payment-app";
import { toolHandlers } from "./tool-handlers";

// One MCP server per request (the transport is stateless): tools from the shared catalogue,
// filtered by the caller's access, with handlers over the REST routes' domain functions; the
// knowledge resources and prompts of the catalogue.

// The Markdown ships in the repository beside the catalogue; bundling moves modules, not files.
const resourceDirectory = () => path.join(process.cwd(), "packages/agent/src/catalog/resources");

/** Tools whose result the payment app shows (price, QR code, live status) in clients with MCP Apps. */
const appTools = new Set([
  "service_checkout_sessions_create",
  "service_checkout_sessions_get",
  "service_paylinks_create",
  "service_paylinks_get",
]);

/** The catalogue's description, plus the MCP Apps link that only the remote server can serve. */
const describeRemoteTool = (tool: ToolDefinition): Tool => ({
  ...(appTools.has(tool.name) ? { _meta: { ui: { resourceUri: paymentAppUri } } } : {}),
  ...describeTool(tool),
});

/** tools/list answers, computed once per access level. */
const listings: Record<"read" | "write", Tool[]> = {
  read: toolsFor("read", "remote").map(describeRemoteTool),
  write: toolsFor("write", "remote").map(describeRemoteTool),
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

  registerKnowledge(server, { baseUrl, directory: resourceDirectory() });
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
  return server;
}
