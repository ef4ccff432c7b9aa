import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import { db } from "@/lib/db/client";
import { mcpRoute } from "@/lib/http/route";
import { assertToolScopes, buildMcpServer } from "@/lib/mcp/build-mcp-server";

// Streamable HTTP, stateless: a new server and transport per request, so any app instance can
// answer any request, with plain JSON answers.
const handle = mcpRoute(async ({ request, caller, requestId }) => {
  if (request.method === "POST")
    assertToolScopes(
      await request
        .clone()
        .json()
        .catch(() => null),
      caller,
    );
  const server = buildMcpServer({ db: db(), caller, requestId });
  const transport = new WebStandardStreamableHTTPServerTransport({
    sessionIdGenerator: undefined,
    enableJsonResponse: true,
  });
  await server.connect(transport);
  return transport.handleRequest(request);
});

export const POST = handle;
export const DELETE = handle;
// Without a session there is nothing to stream from server to client; MCP's Streamable HTTP
// transport lets the server refuse the GET stream with 405, and clients then simply POST.
export const GET = mcpRoute(
  async () => new Response(null, { status: 405, headers: { Allow: "POST, DELETE" } }),
);
