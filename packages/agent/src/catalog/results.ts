// Tool results both servers build the same way: data as structuredContent plus the same JSON as
// text (some clients read only the text), and errors as results (agents cannot see JSON-RPC
// errors) in the words of the REST error envelope.

export type TextContent = { type: "text"; text: string };
export type ToolResult = {
  content: TextContent[];
  structuredContent?: Record<string, unknown>;
  isError?: boolean;
  /** Extra data for the client, outside what the model reads (the remote server's QR code). */
  _meta?: Record<string, unknown>;
};

/** The REST API's error envelope (docs/api.md, "Errors"), as both servers receive or build it. */
export type ErrorEnvelope = {
  error: { type?: string; code: string; message: string; param?: string };
  requestId?: string;
};

/** What an agent should do next, per error code where the message alone does not say it. */
const nextSteps: Record<string, string> = {
  missing_api_key: "Connect again: sign in through your MCP client, or run `crypto-checkout setup`.",
  invalid_api_key: "Connect again: sign in through your MCP client, or run `crypto-checkout setup`.",
  insufficient_access:
    "This connection is read-only; ask the user to connect with read and write access to make changes.",
  insufficient_scope:
    "This connection is read-only; ask the user to connect with read and write access to make changes.",
  resource_missing: "Check the id; list the objects to find the right one.",
  rate_limited: "Wait a little and try again.",
  internal_error: "Try again later; quote the request id if it persists.",
};

export function toolResult(data: Record<string, unknown>, note?: string): ToolResult {
  const content: TextContent[] = [{ type: "text", text: JSON.stringify(data, null, 2) }];
  if (note) content.push({ type: "text", text: note });
  return { content, structuredContent: data };
}

/** A page of a list says in words whether there is more, so agents that skim text page on. */
export function listNote(page: { page: number; hasMore: boolean }): string {
  return page.hasMore
    ? `More results: call again with page ${page.page + 1}.`
    : "This is the last page of results.";
}

/** `code: message. next step. (param: …) Request id: …` as an error result. */
export function toolError(envelope: ErrorEnvelope): ToolResult {
  const { code, message, param } = envelope.error;
  const parts = [`${code}: ${message}`];
  if (param) parts.push(`(parameter: ${param})`);
  if (nextSteps[code]) parts.push(nextSteps[code]);
  if (envelope.requestId) parts.push(`Request id: ${envelope.requestId}.`);
  return { isError: true, content: [{ type: "text", text: parts.join(" ") }] };
}
