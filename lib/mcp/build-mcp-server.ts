import path from "node:path";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { ErrorCode, McpError, type Tool } from "@modelcontextprotocol/sdk/types.js";
import {
  describeTool,
  registerKnowledge,
  serverInstructions,
  type ToolDefinition,
  type ToolResult,
  toolsFor,
} from "crypto-checkout-agent/catalog";
import { serveTools } from "crypto-checkout-agent/mcp";
import { actorOf, authorize, insufficientScope } from "../authority/authorize";
import { type OperationId, operationOfTool } from "../authority/operations";
import { config } from "../config";
import type { Db } from "../db/client";
import { ServiceError, toServiceError } from "../errors";
import type { MerchantCaller } from "../merchant-auth/authenticate-merchant";
import { confirmationKey } from "./confirmation-key";
import { paymentAppHtml, paymentAppMimeType, paymentAppUri, qrMetaKey, qrSvg } from "./payment-app";
import type { RemoteToolName, ToolContext } from "./tools/tool-context";
import { toolHandlers } from "./tools/tool-handlers";

// One MCP server per request (the transport is stateless): tools from the shared catalogue,
// served by the agent kit's serving layer (the local server's too), filtered by the caller's
// access, with handlers over the REST routes' domain functions; the knowledge resources and
// prompts of the catalogue.

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

const remoteTools = toolsFor("write", "remote");

/** The authority table's row for a remote tool; a tool missing from the table is never callable. */
function toolOperation(name: string): OperationId {
  const operation = operationOfTool(name);
  if (!operation) throw new McpError(ErrorCode.InvalidParams, `Unknown tool: ${name}`);
  return operation;
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

/** Runs a tool's handler; a paylink or session it returns also carries its QR code for the payment app. */
async function runTool(input: Record<string, unknown>, context: ToolContext): Promise<ToolResult> {
  const handler = toolHandlers[context.tool] as (input: unknown, context: ToolContext) => Promise<ToolResult>;
  const result = await handler(input, context);
  const url = result.structuredContent?.url;
  if (appTools.has(context.tool) && !result.isError && typeof url === "string") {
    return { ...result, _meta: { [qrMetaKey]: qrSvg(url) } };
  }
  return result;
}

export function buildMcpServer(context: { db: Db; caller: MerchantCaller; requestId: string }): McpServer {
  const baseUrl = config().baseUrl;
  const server = new McpServer(
    { name: "crypto-checkout", title: "Crypto Checkout", version: "1.0.0", websiteUrl: baseUrl },
    { instructions: serverInstructions },
  );
  const { caller, requestId } = context;
  const actor = actorOf(caller);
  serveTools(server.server, {
    tools: remoteTools,
    authorize: (tool) => authorize(actor, toolOperation(tool.name)),
    describe: describeRemoteTool,
    run: ({ tool, input, grant, confirm }) =>
      runTool(input, { ...context, decision: grant, tool: tool.name as RemoteToolName, confirm }),
    envelopeOf: (error) => {
      const known = toServiceError(error, requestId);
      return { error: { code: known.code, message: known.message, param: known.param }, requestId };
    },
    requestId,
    confirmation: {
      key: confirmationKey,
      subject: () => `${caller.organizationId}:${caller.credential.kind}:${caller.credential.id}`,
    },
  });

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
