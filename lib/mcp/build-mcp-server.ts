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
  describeTool,
  registerKnowledge,
  serverInstructions,
  type ToolDefinition,
  toolError,
  toolsFor,
} from "crypto-checkout-agent/catalog";
import { type Actor, actorOf, authorize, insufficientScope } from "../authority/authorize";
import { type OperationId, operationOfTool } from "../authority/operations";
import { config } from "../config";
import type { Db } from "../db/client";
import { ServiceError, toServiceError } from "../errors";
import type { MerchantCaller } from "../merchant-auth/authenticate-merchant";
import { parseOrThrow } from "../validation/validation-error";
import { confirmationKey } from "./confirmation-key";
import { paymentAppHtml, paymentAppMimeType, paymentAppUri, qrMetaKey, qrSvg } from "./payment-app";
import { toolHandlers } from "./tools/tool-handlers";

// One MCP server per request (the transport is stateless): tools from the shared catalogue,
// filtered by the caller's access, with handlers over the REST routes' domain functions; the
// knowledge resources and prompts of the catalogue.

// The Markdown is a published folder of the agent kit (its `resources/*` export), read where the
// package is installed: bundling moves modules, not files.
const resourceDirectory = () => path.join(process.cwd(), "node_modules/crypto-checkout-agent/resources");

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

const allRemoteTools = new Map(toolsFor("write", "remote").map((tool) => [tool.name, tool]));

/** The authority table's row for a remote tool; a tool missing from the table is never callable. */
function toolOperation(name: string): OperationId {
  const operation = operationOfTool(name);
  if (!operation) throw new McpError(ErrorCode.InvalidParams, `Unknown tool: ${name}`);
  return operation;
}

function mayCall(actor: Actor, name: string) {
  try {
    authorize(actor, toolOperation(name));
    return true;
  } catch {
    return false;
  }
}

/** tools/list answers, computed once per kind of caller: only the tools it may call. */
const listings = new Map<string, Tool[]>();
function listingFor(caller: MerchantCaller): Tool[] {
  const key = `${caller.credential.kind}:${caller.access}:${caller.role}`;
  let listing = listings.get(key);
  if (!listing) {
    const actor = actorOf(caller);
    listing = [...allRemoteTools.values()]
      .filter((tool) => mayCall(actor, tool.name))
      .map(describeRemoteTool);
    listings.set(key, listing);
  }
  return listing;
}

/**
 * A tools/call that the caller's token lacks the scope for is refused at the HTTP level, before
 * the MCP server runs: 403 with `WWW-Authenticate: Bearer error="insufficient_scope"`, so clients
 * can ask the user for more (MCP authorization, scope step-up). Role refusals stay tool errors.
 */
export function assertToolScopes(body: unknown, caller: MerchantCaller) {
  const messages = Array.isArray(body) ? body : [body];
  for (const message of messages) {
    if (typeof message !== "object" || message === null) continue;
    const { method, params } = message as { method?: unknown; params?: { name?: unknown } };
    if (method !== "tools/call" || typeof params?.name !== "string") continue;
    const operation = operationOfTool(params.name);
    if (!operation) continue;
    try {
      authorize(actorOf(caller), operation);
    } catch (error) {
      if (error instanceof ServiceError && error.status === 403 && error.code.startsWith("insufficient_")) {
        throw insufficientScope(error.message);
      }
    }
  }
}

async function callTool(
  name: string,
  args: unknown,
  context: { db: Db; caller: MerchantCaller; requestId: string },
): Promise<CallToolResult> {
  const tool = allRemoteTools.get(name);
  if (!tool) throw new McpError(ErrorCode.InvalidParams, `Unknown tool: ${name}`);
  try {
    const decision = authorize(actorOf(context.caller), toolOperation(name));
    const input = parseOrThrow(tool.inputSchema, args ?? {});
    const handler = toolHandlers[name as keyof typeof toolHandlers] as (
      input: unknown,
      handlerContext: Parameters<(typeof toolHandlers)["service_auth_status"]>[1],
    ) => Promise<CallToolResult>;
    const result = await handler(input, { ...context, decision, confirmationKey: confirmationKey() });
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
  server.server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: listingFor(context.caller) }));
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
