import { spawn } from "node:child_process";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { ancestors } from "@/scripts/test-support/span-tree";
import { startWebhookReceiver } from "@/scripts/test-support/webhook-receiver";
import { tracingRequested } from "./start-tracing";

// The real Node SDK with an in-memory exporter in place of OTLP, in a process of its own
// (scripts/test-support/trace-probe.ts): a request's trace holds its route span and the database
// spans under it; a delivery job's trace holds the outbound request to the merchant's receiver.

type ProbeSpan = {
  name: string;
  traceId: string;
  spanId: string;
  parentSpanId: string | null;
  attributes: Record<string, unknown>;
};
type Probe = {
  organizationId: string;
  session: { status: number; body: unknown };
  spans: ProbeSpan[];
};

const root = path.resolve(import.meta.dirname, "../..");

async function runProbe(receiverUrl: string): Promise<Probe> {
  // tsx's loader in the probe's own process: tsx's command line would start a second Node.
  const child = spawn(process.execPath, ["--import", "tsx", "scripts/test-support/trace-probe.ts"], {
    cwd: root,
    env: { ...process.env, RECEIVER_URL: receiverUrl, LOG_LEVEL: "silent", DATABASE_POOL_SIZE: "1" },
    stdio: ["ignore", "pipe", "inherit"],
    detached: true,
  });
  try {
    let output = "";
    child.stdout.on("data", (chunk: Buffer) => {
      output += chunk.toString();
    });
    const code = await new Promise((resolve) => child.once("exit", resolve));
    expect(code).toBe(0);
    return JSON.parse(output.trim().split("\n").pop() as string) as Probe;
  } finally {
    // The probe and anything it started go down with the test, whatever happened.
    try {
      process.kill(-(child.pid as number), "SIGKILL");
    } catch {
      // already gone
    }
  }
}

function descendsFrom(span: ProbeSpan, ancestor: ProbeSpan, spans: ProbeSpan[]): boolean {
  return ancestors(span, spans).includes(ancestor);
}

describe("tracing", () => {
  it.each([
    [{}, false],
    [{ OTEL_EXPORTER_OTLP_ENDPOINT: "http://127.0.0.1:4318" }, true],
    [{ OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: "http://127.0.0.1:4318/v1/traces" }, true],
    [{ OTEL_TRACES_EXPORTER: "console" }, true],
    [{ OTEL_TRACES_EXPORTER: "none", OTEL_EXPORTER_OTLP_ENDPOINT: "http://127.0.0.1:4318" }, false],
    [{ OTEL_SDK_DISABLED: "true", OTEL_TRACES_EXPORTER: "otlp" }, false],
  ])("is requested by %o: %s", (env, requested) => {
    expect(tracingRequested(env)).toBe(requested);
  });

  it("links a session create's route and database spans, and a delivery run's outbound request", async () => {
    const receiver = await startWebhookReceiver();
    try {
      const { organizationId, session, spans } = await runProbe(receiver.url);
      expect(session.status, JSON.stringify(session.body)).toBe(200);

      const routes = spans.filter((span) => span.name === "POST /api/checkout-sessions");
      expect(routes).toHaveLength(5);
      // The four concurrent creates, queued behind one connection, each hold their own queries: as
      // many as each other, none of another's.
      const queriesUnder = (route: ProbeSpan) =>
        spans.filter((span) => span.name.startsWith("pg.query") && descendsFrom(span, route, spans));
      const [route, ...concurrent] = routes;
      const counts = concurrent.map((other) => queriesUnder(other).length);
      expect(counts[0]).toBeGreaterThan(0);
      expect(counts).toEqual(counts.map(() => counts[0]));
      expect(route.attributes).toMatchObject({
        "http.route": "/api/checkout-sessions",
        "http.response.status_code": 200,
        "request.id": expect.stringMatching(/^req_/),
        "organization.id": organizationId,
      });
      const routeQueries = queriesUnder(route);
      expect(routeQueries.length).toBeGreaterThan(0);
      for (const span of routeQueries) expect(span.traceId).toBe(route.traceId);

      const job = spans.find((span) => span.name === "job deliver-webhooks") as ProbeSpan;
      expect(job.attributes).toMatchObject({ "job.task": "deliver-webhooks" });
      // The endpoint's URL without its query string, which may carry the merchant's secret.
      const outbound = spans.find((span) => span.attributes["url.full"] === receiver.url) as ProbeSpan;
      expect(outbound.attributes).toMatchObject({
        "http.request.method": "POST",
        "http.response.status_code": 200,
      });
      expect(outbound.attributes).not.toHaveProperty("url.query");
      expect(JSON.stringify(spans)).not.toContain("probe-query-secret");
      expect(receiver.received[0].path).toBe("/webhooks?token=probe-query-secret");
      expect(descendsFrom(outbound, job, spans)).toBe(true);
      expect(spans.some((span) => span.name.startsWith("pg.query") && descendsFrom(span, job, spans))).toBe(
        true,
      );
      expect(receiver.received).toHaveLength(1);
    } finally {
      await receiver.close();
    }
  }, 90_000);
});
