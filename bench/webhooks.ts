// `npx tsx bench/webhooks.ts`: 10,000 events to one endpoint on a local receiver, delivered by the
// in-process engine of `next start` on real PostgreSQL. Prints deliveries/s and event-to-first-
// attempt latency p50/p99; then the same with a receiver failing 30% of requests (each event
// fails at most twice in a row, so every one is delivered within its first round) and checks
// that every event arrived. Last, a steady load (100 events/s, one per transaction, as payments
// arrive): latency from each event's commit to its first attempt, p50/p99 (target p99 < 250 ms).
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { closeDb, createDb } from "../lib/db/client";
import { recordEvent } from "../lib/events/record-event";
import { createMerchant, startApp } from "./support";

const events = Number(process.env.BENCH_EVENTS ?? 10_000);
const port = Number(process.env.BENCH_PORT ?? 3910);
const steadyRate = Number(process.env.BENCH_STEADY_RATE ?? 100);
const steadySeconds = Number(process.env.BENCH_STEADY_SECONDS ?? 30);

async function receiver(failureRate: number) {
  const firstAttempt = new Map<string, number>();
  const delivered = new Set<string>();
  const failures = new Map<string, number>();
  let requests = 0;
  const server = createServer((request, response) => {
    let body = "";
    request.on("data", (chunk) => (body += chunk));
    request.on("end", () => {
      requests += 1;
      const id = request.headers["x-service-event-id"] as string;
      if (!firstAttempt.has(id)) firstAttempt.set(id, Date.now());
      const failedBefore = failures.get(id) ?? 0;
      if (failedBefore < 2 && Math.random() < failureRate) {
        failures.set(id, failedBefore + 1);
        response.writeHead(500).end();
        return;
      }
      delivered.add(id);
      response.writeHead(200).end("ok");
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`;
  return { url, firstAttempt, delivered, requests: () => requests, close: () => server.close() };
}

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];

/** An app, a receiver, and a merchant with one endpoint on it. */
async function setUp(failureRate: number) {
  const app = await startApp({ port });
  const target = await receiver(failureRate);
  const database = createDb(app.env.DATABASE_URL, 4);
  const { apiKey } = createMerchant(app);
  const endpoint = await (
    await fetch(`${app.baseUrl}/api/private/organization/webhook-endpoints`, {
      method: "POST",
      headers: { authorization: `Bearer ${apiKey}`, "content-type": "application/json" },
      body: JSON.stringify({ name: "Bench", url: target.url }),
    })
  ).json();
  const organizationId = (
    await database.webhookEndpoint.findUniqueOrThrow({ where: { id: endpoint.data.id } })
  ).organizationId;
  const tearDown = async () => {
    await closeDb(database);
    target.close();
    await app.stop();
  };
  return { target, database, organizationId, tearDown };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function run(label: string, failureRate: number) {
  const { target, database, organizationId, tearDown } = await setUp(failureRate);
  try {
    const createdAt = new Map<string, number>();
    const started = Date.now();
    for (let sent = 0; sent < events; sent += 100) {
      await database.$transaction(
        async (tx) => {
          for (let i = sent; i < Math.min(events, sent + 100); i++) {
            const event = await recordEvent(tx, {
              organizationId,
              type: "payment.confirmed",
              data: { n: i },
            });
            createdAt.set(event.id, event.createdAt.getTime());
          }
        },
        { timeout: 60_000 },
      );
    }
    const inserted = Date.now();
    for (const deadline = Date.now() + 600_000; target.delivered.size < events && Date.now() < deadline; ) {
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    const finished = Date.now();
    const latencies = [...target.firstAttempt]
      .map(([id, at]) => at - (createdAt.get(id) ?? at))
      .sort((a, b) => a - b);
    const lost = [...createdAt.keys()].filter((id) => !target.delivered.has(id)).length;
    const attemptsPerSecond = target.requests() / ((finished - started) / 1000);
    console.log(
      `${label.padEnd(26)} events ${events}  inserted in ${((inserted - started) / 1000).toFixed(1)} s  all delivered after ${((finished - started) / 1000).toFixed(1)} s  ` +
        `deliveries/s ${(events / ((Math.max(...target.firstAttempt.values()) - started) / 1000)).toFixed(0)}  attempts/s ${attemptsPerSecond.toFixed(0)}  ` +
        `first-attempt latency p50 ${percentile(latencies, 50)} ms p99 ${percentile(latencies, 99)} ms  lost ${lost}`,
    );
  } finally {
    await tearDown();
  }
}

async function steady(label: string) {
  const { target, database, organizationId, tearDown } = await setUp(0);
  try {
    const committedAt = new Map<string, number>();
    const total = steadyRate * steadySeconds;
    const started = performance.now();
    const inserts: Promise<void>[] = [];
    for (let i = 0; i < total; i++) {
      await sleep(started + (i * 1000) / steadyRate - performance.now());
      inserts.push(
        database
          .$transaction((tx) =>
            recordEvent(tx, { organizationId, type: "payment.confirmed", data: { n: i } }),
          )
          .then((event) => void committedAt.set(event.id, Date.now())),
      );
    }
    await Promise.all(inserts);
    for (const deadline = Date.now() + 60_000; target.delivered.size < total && Date.now() < deadline; ) {
      await sleep(100);
    }
    const latencies = [...target.firstAttempt]
      .map(([id, at]) => at - (committedAt.get(id) ?? at))
      .sort((a, b) => a - b);
    const lost = [...committedAt.keys()].filter((id) => !target.delivered.has(id)).length;
    console.log(
      `${label.padEnd(26)} events ${total} at ${steadyRate}/s  commit-to-first-attempt p50 ${percentile(latencies, 50)} ms ` +
        `p99 ${percentile(latencies, 99)} ms max ${latencies.at(-1)} ms  lost ${lost}`,
    );
  } finally {
    await tearDown();
  }
}

await run("receiver always 200", 0);
await run("receiver failing 30%", 0.3);
await steady("steady load");
