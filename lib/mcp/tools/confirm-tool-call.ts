import { confirmDestructiveCall, type ToolResult } from "crypto-checkout-agent/catalog";
import type { AlongsideWork } from "../../db/client";
import { useConfirmationToken } from "../use-confirmation-token";
import type { RemoteToolName, ToolContext } from "./tool-context";

/**
 * The confirmation binds the token to the organization, the credential that asked, the arguments
 * and the state the preview showed. Once it holds, `use` marks the token used inside the action's
 * transaction, so it confirms exactly one action.
 */
export function confirmToolCall(
  context: ToolContext,
  tool: RemoteToolName,
  args: Record<string, unknown>,
  preview: string,
  state: unknown,
): { proceed: false; result: ToolResult } | { proceed: true; use: AlongsideWork } {
  const { caller } = context;
  const gate = confirmDestructiveCall(context.confirmationKey, {
    tool,
    subject: `${caller.organizationId}:${caller.credential.kind}:${caller.credential.id}`,
    args,
    preview,
    state,
    requestId: context.requestId,
  });
  if (!gate.proceed) return gate;
  return {
    proceed: true,
    use: (tx) => useConfirmationToken(tx, { token: gate.token, organizationId: caller.organizationId, tool }),
  };
}
