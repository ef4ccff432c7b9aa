// `npx tsx bench/hosted-page.ts`: the hosted checkout page's server render (p50/p99 of GET
// /pay/{session} at one connection, so it is the render's own latency, not queueing) and the
// JavaScript a buyer's browser loads first (every <script src> of the page, gzipped, summed).
// Budgets: p50 under 100 ms, first-load JS under 150 KB gzipped; exits 1 when over either.
// BENCH_SECONDS (default 10) and BENCH_PORT (default 9360; its devnet takes the next port).
import { gzipSync } from "node:zlib";
import { createMerchant, measure, startApp } from "./support";

const duration = Number(process.env.BENCH_SECONDS ?? 10);
const port = Number(process.env.BENCH_PORT ?? 9360);
const budget = { p50Ms: 100, firstLoadKb: 150 };

const app = await startApp({
  port,
  env: {
    SERVICE_DEVNET: "true",
    SERVICE_DEVNET_PORT: String(port + 1),
    SERVICE_SOLANA_DEVNET_PORT: String(port + 2),
    SERVICE_RATE_LIMIT_PUBLIC_PER_MINUTE: "1000000",
  },
});
let failed = false;
try {
  const { apiKey } = createMerchant(app);
  const created = await (
    await fetch(`${app.baseUrl}/api/checkout-sessions`, {
      method: "POST",
      headers: {
        authorization: `Bearer ${apiKey}`,
        "content-type": "application/json",
        "idempotency-key": `bench-hosted-page-${Date.now()}`,
      },
      body: JSON.stringify({
        amount: "49.00",
        currency: "USD",
        description: "Bench order",
        merchantOrderId: "b-1",
      }),
    })
  ).json();
  if (!created.id) throw new Error(`could not create a session: ${JSON.stringify(created)}`);
  const url = `${app.baseUrl}/pay/${created.id}`;
  const headers = { "accept-language": "de-DE,de;q=0.9" };

  await measure("warm-up", { url, duration: 3, connections: 1, headers });
  const render = await measure("GET /pay/{id}", { url, duration, connections: 1, headers });

  const html = await (await fetch(url, { headers })).text();
  // Module-capable browsers skip `nomodule` scripts (the legacy polyfills), so they are not counted.
  const scripts = [...html.matchAll(/<script([^>]*)>/g)]
    .filter((match) => !/\bnomodule\b/i.test(match[1] as string))
    .flatMap((match) => /\bsrc="([^"]+)"/.exec(match[1] as string)?.[1] ?? []);
  let gzipped = 0;
  let raw = 0;
  for (const src of new Set(scripts)) {
    const body = Buffer.from(await (await fetch(new URL(src, app.baseUrl))).arrayBuffer());
    raw += body.length;
    gzipped += gzipSync(body, { level: 9 }).length;
  }
  const firstLoadKb = gzipped / 1024;
  console.log("\nhosted checkout page                     value     budget");
  console.log(
    `server render p50 (ms)            ${render.p50.toFixed(1).padStart(10)} ${String(budget.p50Ms).padStart(10)}`,
  );
  console.log(`server render p99 (ms)            ${render.p99.toFixed(1).padStart(10)}`);
  console.log(`renders per second (1 connection) ${render.requestsPerSecond.toFixed(0).padStart(10)}`);
  console.log(
    `first-load JS gzipped (KB)        ${firstLoadKb.toFixed(1).padStart(10)} ${String(budget.firstLoadKb).padStart(10)}   (${scripts.length} scripts, ${(raw / 1024).toFixed(0)} KB raw)`,
  );
  if (render.non2xx > 0) console.log(`non-2xx answers: ${render.non2xx}`);
  failed = render.p50 >= budget.p50Ms || firstLoadKb >= budget.firstLoadKb || render.non2xx > 0;
} finally {
  await app.stop();
}
process.exit(failed ? 1 : 0);
