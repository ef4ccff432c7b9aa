import type { Server } from "@modelcontextprotocol/sdk/server/index.js";
import {
  CallToolRequestSchema,
  type CallToolResult,
  ErrorCode,
  ListToolsRequestSchema,
  McpError,
  type Tool,
} from "@modelcontextprotocol/sdk/types.js";
import {
  confirmDestructiveCall,
  describeTool,
  type ErrorEnvelope,
  parseArguments,
  type ToolDefinition,
  type ToolResult,
  toolError,
} from "../catalog";

// tools/list and tools/call of both MCP servers, the remote one (lib/mcp/build-mcp-server.ts) and
// the local one (./local-server.ts), written once so that they answer alike: the same listing of
// the tools the caller may call, an unknown tool as a JSON-RPC error, and a refusal, bad arguments,
// a confirmation step or a failure as an error result in the REST error envelope's words.
// Published as `crypto-checkout-agent/mcp`.

/**
 * A destructive tool's confirmation: go ahead, with the token to record as used together with the
 * action (null when the user said yes in the client), or the result to return instead.
 */
export type ConfirmationStep =
  | { proceed: true; token: string | null }
  | { proceed: false; result: ToolResult };

export type ToolCall<Grant> = {
  tool: ToolDefinition;
  /** The arguments as the tool's input schema parsed them. */
  input: Record<string, unknown>;
  /** What `authorize` answered. */
  grant: Grant;
  /**
   * The confirmation step of a tool marked `confirmation`, bound to it, these arguments and this
   * caller: the user's yes through the client where it can ask, otherwise a refusal carrying the
   * preview and a token that a second call must bring for exactly these arguments and this `state`
   * (what the preview showed). A preview is a courtesy to the user, never the authority: who may
   * act, and whether an owner must decide, is the grant's.
   */
  confirm(preview: string, state: unknown): Promise<ConfirmationStep>;
};

export type ToolServing<Grant> = {
  /** Every tool the server answers; tools/list shows those that `authorize` lets the caller call. */
  tools: readonly ToolDefinition[];
  /** What the caller may do with the tool; throws the refusal. */
  authorize(tool: ToolDefinition): Grant;
  /** The tool's tools/list entry (describeTool unless the server adds to it). */
  describe?(tool: ToolDefinition): Tool;
  run(call: ToolCall<Grant>): Promise<ToolResult>;
  /** The error envelope of anything `authorize`, `run` or the confirmation key threw. */
  envelopeOf(error: unknown): ErrorEnvelope;
  /** Quoted in the error results this layer builds itself. */
  requestId?: string;
  confirmation: {
    /** The key that signs confirmation tokens. */
    key(): Uint8Array;
    /** Whom a token is issued to (the organization and credential): no one else can use it. */
    subject(): string | Promise<string>;
    /** Asks the user through the client (MCP elicitation); null when the client cannot. */
    askUser?(message: string): Promise<boolean | null>;
  };
};

function mayCall<Grant>(serving: ToolServing<Grant>, tool: ToolDefinition): boolean {
  try {
    serving.authorize(tool);
    return true;
  } catch {
    return false;
  }
}

async function confirmationStep<Grant>(
  serving: ToolServing<Grant>,
  tool: ToolDefinition,
  args: Record<string, unknown>,
  preview: string,
  state: unknown,
): Promise<ConfirmationStep> {
  // The catalogue tells clients which tools ask first; a tool that asks without saying so is a bug.
  if (!tool.confirmation) throw new Error(`${tool.name} is not marked as needing confirmation`);
  const { requestId, confirmation } = serving;
  if (args.confirmationToken === undefined && confirmation.askUser) {
    const answer = await confirmation.askUser(preview);
    if (answer === true) return { proceed: true, token: null };
    if (answer === false) {
      return {
        proceed: false,
        result: toolError({
          error: { code: "confirmation_declined", message: "The user declined; nothing was changed." },
          requestId,
        }),
      };
    }
  }
  const check = confirmDestructiveCall(confirmation.key(), {
    tool: tool.name,
    subject: await confirmation.subject(),
    args,
    preview,
    state,
    requestId,
  });
  return check.proceed ? { proceed: true, token: check.token } : check;
}

async function callTool<Grant>(
  serving: ToolServing<Grant>,
  tool: ToolDefinition,
  args: unknown,
): Promise<ToolResult> {
  try {
    const grant = serving.authorize(tool);
    const parsed = parseArguments(tool.inputSchema, args ?? {});
    if (!parsed.success) return toolError({ error: parsed.problem, requestId: serving.requestId });
    const input = parsed.data as Record<string, unknown>;
    const confirm = (preview: string, state: unknown) =>
      confirmationStep(serving, tool, input, preview, state);
    return await serving.run({ tool, input, grant, confirm });
  } catch (error) {
    return toolError(serving.envelopeOf(error));
  }
}

/** Answers tools/list and tools/call on `server` (to be called before it connects). */
export function serveTools<Grant>(server: Server, serving: ToolServing<Grant>): void {
  const byName = new Map(serving.tools.map((tool) => [tool.name, tool]));
  const describe = serving.describe ?? (describeTool as (tool: ToolDefinition) => Tool);
  server.registerCapabilities({ tools: {} });
  server.setRequestHandler(ListToolsRequestSchema, () => ({
    tools: serving.tools.filter((tool) => mayCall(serving, tool)).map(describe),
  }));
  server.setRequestHandler(CallToolRequestSchema, async (request) => {
    const tool = byName.get(request.params.name);
    if (!tool) throw new McpError(ErrorCode.InvalidParams, `Unknown tool: ${request.params.name}`);
    return (await callTool(serving, tool, request.params.arguments)) as CallToolResult;
  });
}
