import type { ToolResult } from "crypto-checkout-agent/catalog";
import type { AlongsideWork } from "../../db/client";
import { useConfirmationToken } from "../use-confirmation-token";
import type { ToolContext } from "./tool-context";

/**
 * The serving layer's confirmation step, which binds the token to the organization, the
 * credential that asked, the arguments and the state the preview showed. Once it holds, `use`
 * marks the token used inside the action's transaction, so it confirms exactly one action.
 */
export async function confirmToolCall(
  context: ToolContext,
  preview: string,
  state: unknown,
): Promise<{ proceed: false; result: ToolResult } | { proceed: true; use: AlongsideWork }> {
  const step = await context.confirm(preview, state);
  if (!step.proceed) return step;
  const { token } = step;
  // Only a client the server can ask answers without a token, and over stateless HTTP none can.
  if (token === null) throw new Error("The remote MCP server cannot elicit a confirmation");
  const { caller, tool } = context;
  return {
    proceed: true,
    use: (tx) => useConfirmationToken(tx, { token, organizationId: caller.organizationId, tool }),
  };
}
