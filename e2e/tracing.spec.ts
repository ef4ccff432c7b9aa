import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { ancestors } from "../scripts/test-support/span-tree";
import { startWebhookReceiver } from "../scripts/test-support/webhook-receiver";
import { healthy, sendTestEvents, startApp, stopApp, waitUntil } from "./app-instances";
import { expect, test } from "./fixtures";

// Traces from the app as it runs in production (`npm start`), exported over OTLP/HTTP to a
// collector of ours: a request continues its caller's trace, its span (the server's, named after
// the route) carries the request and organization ids, its queries sit under it, a delivery's
// outbound request sits under its job run, and Next.js records no spans of its own.

const port = Number(process.env.E2E_PORT ?? 3100) + 5;

type OtlpValue = { stringValue?: string; intValue?: string | number; boolValue?: boolean };
type ExportedSpan = {
  name: string;
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  attributes: Record<string, unknown>;
};

/** A collector that keeps every span it is sent (OTLP/HTTP, JSON encoding). */
async function startCollector() {
  const spans: ExportedSpan[] = [];
  const server = createServer((request, response) => {
    let body = "";
    request.on("data", (chunk: Buffer) => {
      body += chunk.toString();
    });
    request.on("end", () => {
      const payload = JSON.parse(body) as {
        resourceSpans: {
          scopeSpans: {
            spans: (Omit<ExportedSpan, "attributes"> & {
              attributes?: { key: string; value: OtlpValue }[];
            })[];
          }[];
        }[];
      };
      for (const resource of payload.resourceSpans ?? [])
        for (const scope of resource.scopeSpans ?? [])
          for (const span of scope.spans ?? [])
            spans.push({
              ...span,
              attributes: Object.fromEntries(
                (span.attributes ?? []).map(({ key, value }) => [
                  key,
                  value.stringValue ?? value.boolValue ?? Number(value.intValue),
                ]),
              ),
            });
      response.writeHead(200, { "content-type": "application/json" }).end("{}");
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    spans,
    close: () => new Promise((resolve) => server.close(resolve)),
  };
}

test("the running app exports linked request, database and delivery spans", async () => {
  test.setTimeout(240_000);
  const collector = await startCollector();
  const receiver = await startWebhookReceiver();
  const app = startApp(port, {
    env: {
      OTEL_TRACES_EXPORTER: "otlp",
      OTEL_EXPORTER_OTLP_PROTOCOL: "http/json",
      OTEL_EXPORTER_OTLP_ENDPOINT: collector.url,
      OTEL_BSP_SCHEDULE_DELAY: "200",
    },
  });
  try {
    await waitUntil(healthy(port), 120_000, "the app");
    const { apiKey, organizationId, sent } = await sendTestEvents(port, receiver.url, 1, "Trace Store");

    const callerTraceId = "4bf92f3577b34da6a3ce929d0e0e4736";
    const response = await fetch(`http://127.0.0.1:${port}/api/checkout-sessions`, {
      method: "POST",
      headers: {
        authorization: `Bearer ${apiKey}`,
        "content-type": "application/json",
        "idempotency-key": "tracing-spec-session-0001",
        traceparent: `00-${callerTraceId}-00f067aa0ba902b7-01`,
      },
      body: JSON.stringify({ amount: "12.50", currency: "USD" }),
    });
    expect(response.status, await response.clone().text()).toBe(200);
    const requestId = response.headers.get("x-request-id");

    const routeSpan = () =>
      collector.spans.find(
        (span) => span.name === "POST /api/checkout-sessions" && span.attributes["request.id"] === requestId,
      );
    await waitUntil(() => routeSpan() !== undefined, 30_000, "the request's span");
    const route = routeSpan() as ExportedSpan;
    expect(route.traceId).toBe(callerTraceId);
    expect(route.attributes).toMatchObject({
      "http.route": "/api/checkout-sessions",
      "http.response.status_code": 200,
      "organization.id": organizationId,
    });
    // Its database queries, exported within the same batch or the next.
    await waitUntil(
      () =>
        collector.spans.some(
          (span) => span.name.startsWith("pg.query") && ancestors(span, collector.spans).includes(route),
        ),
      10_000,
      "the request's queries",
    );

    // One span for the request: the server's, continuing the caller's, named after the route by
    // the route's wrapper. Beneath it only the queries: no Next.js phases (its proxy and route
    // passes included), no pool checkouts.
    const trace = collector.spans.filter((span) => span.traceId === callerTraceId);
    expect(route.parentSpanId).toBe("00f067aa0ba902b7");
    expect(route.attributes).toMatchObject({
      "http.request.method": "POST",
      "url.path": "/api/checkout-sessions",
    });
    const beneath = trace.filter((span) => span !== route);
    expect(collector.spans.filter((span) => span.attributes["next.span_type"] !== undefined)).toEqual([]);
    expect(beneath.length).toBeGreaterThan(0);
    for (const span of beneath) {
      expect(span.name).toMatch(/^pg\.query/);
      expect(ancestors(span, collector.spans)).toContain(route);
    }

    await waitUntil(() => receiver.received.length === 1, 30_000, "the delivery");
    expect(receiver.received[0].headers["x-service-event-id"]).toBe(sent[0]);
    const outboundSpan = () => collector.spans.find((span) => span.attributes["url.full"] === receiver.url);
    await waitUntil(() => outboundSpan() !== undefined, 30_000, "the delivery's span");
    const outbound = outboundSpan() as ExportedSpan;
    expect(outbound.attributes).toMatchObject({
      "http.request.method": "POST",
      "http.response.status_code": 200,
    });
    // The pass's span ends after its delivery, so it may come in a later export than the delivery's.
    const jobSpan = () =>
      ancestors(outbound, collector.spans).find((span) => span.name === "job deliver-webhooks");
    await waitUntil(() => jobSpan() !== undefined, 10_000, "the delivery's job span");
    const job = jobSpan();
    expect(job).toBeDefined();
    // A trace of its own, though the test event's request woke it.
    expect(job?.parentSpanId ?? "").toBe("");
  } finally {
    await stopApp(app);
    await receiver.close();
    await collector.close();
  }
});
