// `npx tsx bench/mcp.ts`: the remote MCP server's tools/call (service_auth_status and a paylink
// read) at 16 concurrent clients, each against the same read over REST (GET organization/current
// does auth_status's lookup) measured in the same run, on `next start` with real PostgreSQL.
// Targets: MCP ≥ 0.5× REST, p99 < 150 ms.
// 15 s per scenario (BENCH_SECONDS to change).
import { createMerchant, measure, printTable, startApp } from "./support";

const duration = Number(process.env.BENCH_SECONDS ?? 15);
const connections = 16;
const app = await startApp({
  port: Number(process.env.BENCH_PORT ?? 3172),
  env: {
    SERVICE_RATE_LIMIT_API_PER_SECOND: "1000000",
    DATABASE_POOL_SIZE: process.env.DATABASE_POOL_SIZE ?? "10",
  },
});
try {
  const { apiKey } = createMerchant(app);
  const auth = { authorization: `Bearer ${apiKey}` };
  const paylink = await (
    await fetch(`${app.baseUrl}/api/private/paylinks/create`, {
      method: "POST",
      headers: { ...auth, "content-type": "application/json" },
      body: JSON.stringify({ name: "Bench pack", amount: "4.50", currency: "USD" }),
    })
  ).json();

  // A stateless server needs no session: every request is a complete JSON-RPC call.
  const mcpHeaders = {
    ...auth,
    "content-type": "application/json",
    accept: "application/json, text/event-stream",
    "mcp-protocol-version": "2025-11-25",
  };
  const toolCall = (name: string, args: Record<string, unknown>) =>
    JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name, arguments: args } });
  const scenarios = {
    rest: { url: `${app.baseUrl}/api/private/paylinks/${paylink.data.id}`, headers: auth },
    restOrganization: { url: `${app.baseUrl}/api/private/organization/current`, headers: auth },
    paylink: {
      url: `${app.baseUrl}/mcp`,
      method: "POST" as const,
      headers: mcpHeaders,
      body: toolCall("service_paylinks_get", { id: paylink.data.id }),
    },
    status: {
      url: `${app.baseUrl}/mcp`,
      method: "POST" as const,
      headers: mcpHeaders,
      body: toolCall("service_auth_status", {}),
    },
  };

  // Each MCP answer must be a tool result, not an error: check once before measuring.
  for (const scenario of [scenarios.paylink, scenarios.status]) {
    const answer = await (await fetch(scenario.url, { ...scenario })).json();
    if (answer.result?.isError !== undefined || !answer.result?.structuredContent) {
      throw new Error(`unexpected MCP answer: ${JSON.stringify(answer)}`);
    }
  }
  for (const scenario of Object.values(scenarios))
    await measure("warm-up", { ...scenario, duration: 3, connections });

  const rest = await measure("REST GET paylink", { ...scenarios.rest, duration, connections });
  const paylinkRead = await measure("MCP service_paylinks_get", {
    ...scenarios.paylink,
    duration,
    connections,
  });
  printTable([rest, paylinkRead], rest);
  const restOrganization = await measure("REST GET organization", {
    ...scenarios.restOrganization,
    duration,
    connections,
  });
  const status = await measure("MCP service_auth_status", { ...scenarios.status, duration, connections });
  printTable([restOrganization, status], restOrganization);
  console.log(`\n(${connections} connections; "x ceiling" is the ratio to the REST twin above it)`);
} finally {
  await app.stop();
}
