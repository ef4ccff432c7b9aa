// `npx tsx bench/checkout-sessions.ts`: session create (fresh keys), idempotent replay and retrieve
// against `next start` on real PostgreSQL, each as a ratio of a trivial route of the same app
// measured in the same run. 32 connections, 15 s per scenario (BENCH_SECONDS to change).
// Then the same app again with observability on (SERVICE_METRICS_TOKEN set and scraped every 5 s,
// OpenTelemetry traces exported over OTLP to a local sink) and the create throughput of both runs
// side by side. BENCH_PORT (default 3900) is the app's port; BENCH_OBSERVABILITY=0 skips the second run.
import { randomUUID } from "node:crypto";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { type App, createMerchant, type Measured, measure, printTable, startApp } from "./support";

const duration = Number(process.env.BENCH_SECONDS ?? 15);
const port = Number(process.env.BENCH_PORT ?? 3900);
const baseEnv = {
  SERVICE_RATE_LIMIT_API_PER_SECOND: "1000000",
  DATABASE_POOL_SIZE: process.env.DATABASE_POOL_SIZE ?? "10",
};

async function scenarios(app: App, label: string, only?: "create"): Promise<Measured[]> {
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

  const ceiling = await measure(`ceiling ${label}`, { url: `${app.baseUrl}/api/health/live`, duration });
  const create = await measure(`create ${label}`, {
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
  if (only === "create") return [ceiling, create];
  const replay = await measure(`idempotent replay ${label}`, {
    url: `${app.baseUrl}/api/checkout-sessions`,
    duration,
    method: "POST",
    headers: { ...headers, "idempotency-key": "bench-replay-key-0001" },
    body,
  });
  const retrieve = await measure(`retrieve ${label}`, {
    url: `${app.baseUrl}/api/checkout-sessions/${created.id}`,
    duration,
    headers,
  });
  return [ceiling, create, replay, retrieve];
}

const off = await startApp({ port, env: baseEnv });
let plain: Measured[];
try {
  plain = await scenarios(off, "(obs. off)");
  printTable(plain, plain[0]);
} finally {
  await off.stop();
}

if (process.env.BENCH_OBSERVABILITY !== "0") {
  // An OTLP/HTTP sink on loopback: spans are really serialised and sent, and thrown away here.
  let exported = 0;
  const sink = createServer((request, response) => {
    request.resume();
    request.on("end", () => {
      exported += 1;
      response.writeHead(200, { "content-type": "application/json" }).end("{}");
    });
  });
  await new Promise<void>((resolve) => sink.listen(0, "127.0.0.1", resolve));
  const token = "bench-metrics-token-0123456789";
  const on = await startApp({
    port,
    env: {
      ...baseEnv,
      SERVICE_METRICS_TOKEN: token,
      OTEL_TRACES_EXPORTER: "otlp",
      OTEL_EXPORTER_OTLP_PROTOCOL: "http/protobuf",
      OTEL_EXPORTER_OTLP_ENDPOINT: `http://127.0.0.1:${(sink.address() as AddressInfo).port}`,
    },
  });
  const scraper = setInterval(() => {
    void fetch(`${on.baseUrl}/api/metrics`, { headers: { authorization: `Bearer ${token}` } }).catch(
      () => {},
    );
  }, 5_000);
  try {
    const observed = await scenarios(on, "(obs. on)", "create");
    printTable(observed, observed[0]);
    const [ceilingOff, createOff] = plain;
    const [ceilingOn, createOn] = observed;
    const raw = createOn.requestsPerSecond / createOff.requestsPerSecond;
    const relative =
      createOn.requestsPerSecond /
      ceilingOn.requestsPerSecond /
      (createOff.requestsPerSecond / ceilingOff.requestsPerSecond);
    console.log(
      `\ncreate with metrics + tracing on: ${(raw * 100).toFixed(1)}% of off (overhead ${((1 - raw) * 100).toFixed(1)}%);` +
        ` per ceiling ${(relative * 100).toFixed(1)}% (overhead ${((1 - relative) * 100).toFixed(1)}%); ${exported} OTLP exports received`,
    );
  } finally {
    clearInterval(scraper);
    await on.stop();
    sink.close();
  }
}
