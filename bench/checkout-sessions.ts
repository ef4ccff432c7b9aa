// `npx tsx bench/checkout-sessions.ts`: session create (fresh keys), idempotent replay and retrieve
// against `next start` on real PostgreSQL, each as a ratio of a trivial route of the same app
// measured in the same run. 32 connections, 15 s per scenario (BENCH_SECONDS to change).
import { randomUUID } from "node:crypto";
import { createMerchant, measure, printTable, startApp } from "./support";

const duration = Number(process.env.BENCH_SECONDS ?? 15);
const app = await startApp({
  port: 3900,
  env: {
    SERVICE_RATE_LIMIT_API_PER_SECOND: "1000000",
    DATABASE_POOL_SIZE: process.env.DATABASE_POOL_SIZE ?? "10",
  },
});
try {
  const { apiKey } = createMerchant(app);
  const headers = { authorization: `Bearer ${apiKey}`, "content-type": "application/json" };
  const body = JSON.stringify({ amount: "49.00", currency: "USD", merchantOrderId: "bench" });
  const created = await (
    await fetch(`${app.baseUrl}/api/checkout-sessions`, {
      method: "POST",
      headers: { ...headers, "idempotency-key": "bench-replay-key-0001" },
      body,
    })
  ).json();

  // Warm every route first, so JIT, lazy imports and connection pools are not what gets measured.
  for (const url of [
    `${app.baseUrl}/api/health/live`,
    `${app.baseUrl}/api/checkout-sessions/${created.id}`,
  ]) {
    await measure("warm-up", { url, duration: 3, headers });
  }
  await measure("warm-up", {
    url: `${app.baseUrl}/api/checkout-sessions`,
    duration: 3,
    method: "POST",
    headers: { ...headers, "idempotency-key": "bench-replay-key-0001" },
    body,
  });

  const ceiling = await measure("ceiling (GET /api/health/live)", {
    url: `${app.baseUrl}/api/health/live`,
    duration,
  });
  const create = await measure("create (fresh keys)", {
    url: `${app.baseUrl}/api/checkout-sessions`,
    duration,
    method: "POST",
    headers,
    body,
    setupClient: (client) => {
      client.setHeaders({ ...headers, "idempotency-key": `bench-${randomUUID()}` });
      client.on("response", () =>
        client.setHeaders({ ...headers, "idempotency-key": `bench-${randomUUID()}` }),
      );
    },
  });
  const replay = await measure("idempotent replay", {
    url: `${app.baseUrl}/api/checkout-sessions`,
    duration,
    method: "POST",
    headers: { ...headers, "idempotency-key": "bench-replay-key-0001" },
    body,
  });
  const retrieve = await measure("retrieve", {
    url: `${app.baseUrl}/api/checkout-sessions/${created.id}`,
    duration,
    headers,
  });
  printTable([ceiling, create, replay, retrieve], ceiling);
} finally {
  await app.stop();
}
