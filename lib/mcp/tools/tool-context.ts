import type { ToolInput, ToolName, ToolResult } from "crypto-checkout-agent/catalog";
import type { ToolCall } from "crypto-checkout-agent/mcp";
import type { Decision } from "../../authority/authorize";
import type { Db } from "../../db/client";
import type { MerchantCaller } from "../../merchant-auth/authenticate-merchant";
import { pagingQuery } from "../../validation/fields";
import { parseOrThrow } from "../../validation/validation-error";

// The remote MCP server's tools: each parses its arguments with the REST route's schema, calls
// the same domain function for the caller's organization and returns the REST serializer's
// output, so a tool and its REST route agree on data and errors.

export type ToolContext = {
  db: Db;
  caller: MerchantCaller;
  requestId: string;
  /** The authority table's answer: `propose` where the tool routes money (lib/authority). */
  decision: Decision;
  /** The tool called. */
  tool: RemoteToolName;
  /** The serving layer's confirmation step for this call (crypto-checkout-agent/mcp). */
  confirm: ToolCall<Decision>["confirm"];
};

/** The catalogue's tools the remote server answers (the others run only in the local kit). */
export type RemoteToolName = Exclude<
  ToolName,
  "service_agent_setup" | "service_agent_checkin" | "service_webhooks_verify_signature"
>;

type Handler<N extends ToolName> = (input: ToolInput<N>, context: ToolContext) => Promise<ToolResult>;

/**
 * The handlers of every remote tool whose name starts with one of `Prefix`: a domain file typed
 * with it fails to compile when a tool of its domain has no handler or a handler has no tool.
 */
export type ToolHandlers<Prefix extends string = ""> = {
  [N in Extract<RemoteToolName, `${Prefix}${string}`>]: Handler<N>;
};

export const pageOf = (input: { page?: number; rows?: number }) =>
  parseOrThrow(pagingQuery, { page: input.page, rows: input.rows });
