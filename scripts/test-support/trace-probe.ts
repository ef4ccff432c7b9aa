// Run by lib/telemetry/start-tracing.int.test.ts in a process of its own, because the SDK must
// patch pg before anything loads it (as instrumentation.ts does in the app) and a test file's
// setup has loaded it already. Starts tracing with an in-memory exporter, creates a checkout
// session through its route, then four at once, runs one webhook delivery pass to an endpoint at
// `RECEIVER_URL` (with a query string), and prints every finished span as one JSON document.
import { InMemorySpanExporter, SimpleSpanProcessor } from "@opentelemetry/sdk-trace";
import { startTracing } from "../../lib/telemetry/start-tracing";

const exporter = new InMemorySpanExporter();
const stop = await startTracing({ spanProcessors: [new SimpleSpanProcessor({ exporter })] });
const { POST } = await import("../../app/api/checkout-sessions/route");
const { db, disconnectDb } = await import("../../lib/db/client");
const { backgroundTasks } = await import("../../lib/tasks/background-tasks");
const { runTaskOnce } = await import("../../lib/jobs/periodic-task");
const { sendTestEvent } = await import("../../lib/webhooks/send-test-event");
const { createWebhookEndpoint } = await import("../../lib/webhooks/create-webhook-endpoint");
const { callRoute } = await import("./call-route");
const { createTestOrganization } = await import("./fixtures");

const { organization, auth } = await createTestOrganization();
const session = await callRoute(POST, "/api/checkout-sessions", {
  headers: { ...auth, "idempotency-key": "trace-probe-session-create" },
  body: { amount: "10.00", currency: "USD" },
});
// More requests at once than the pool has connections (the test runs this with one): queries wait
// for a connection another request releases, and must still land in their own request's trace.
await Promise.all(
  [1, 2, 3, 4].map((n) =>
    callRoute(POST, "/api/checkout-sessions", {
      headers: { ...auth, "idempotency-key": `trace-probe-concurrent-${n}` },
      body: { amount: "10.00", currency: "USD" },
    }),
  ),
);
const { endpoint } = await createWebhookEndpoint(db(), organization.id, {
  name: "Shop",
  // A secret of the merchant's in the query string, which the outbound span must not record.
  url: `${process.env.RECEIVER_URL}?token=probe-query-secret`,
  adapter: "NONE",
  enabled: true,
});
await sendTestEvent(db(), organization.id, endpoint.id);
const deliver = backgroundTasks.find((task) => task.name === "deliver-webhooks");
if (!deliver) throw new Error("no deliver-webhooks task");
await runTaskOnce(db(), deliver);
await disconnectDb();
const spans = exporter.getFinishedSpans().map((span) => ({
  name: span.name,
  traceId: span.spanContext().traceId,
  spanId: span.spanContext().spanId,
  parentSpanId: span.parentSpanContext?.spanId ?? null,
  attributes: span.attributes,
}));
await stop();
console.log(
  JSON.stringify({
    organizationId: organization.id,
    session: { status: session.status, body: session.json },
    spans,
  }),
);
