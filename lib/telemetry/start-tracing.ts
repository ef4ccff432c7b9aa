import Module from "node:module";
import { context, type ProxyTracerProvider, type TracerProvider, trace } from "@opentelemetry/api";
import type { SpanProcessor } from "@opentelemetry/sdk-trace";
import { setTracerProvider } from "./spans";

/**
 * Tracing is off unless the standard OpenTelemetry variables ask for it: an OTLP endpoint, or
 * OTEL_TRACES_EXPORTER naming an exporter. OTEL_SDK_DISABLED=true turns it off regardless.
 */
export function tracingRequested(env: Record<string, string | undefined> = process.env): boolean {
  if (env.OTEL_SDK_DISABLED === "true") return false;
  const exporter = env.OTEL_TRACES_EXPORTER;
  if (exporter) return exporter !== "none";
  return Boolean(env.OTEL_EXPORTER_OTLP_ENDPOINT || env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT);
}

/**
 * Starts the OpenTelemetry Node SDK with spans for outgoing HTTP (node:http, undici and fetch) and
 * for PostgreSQL queries (pg, under Prisma's driver adapter). The exporter, sampler, service name
 * and resource come from the standard OTEL_* variables; `spanProcessors` replaces the exporter
 * (tests collect spans in memory). Returns a function that flushes and stops it.
 */
export async function startTracing(options: { spanProcessors?: SpanProcessor[] } = {}) {
  const [{ NodeSDK }, { HttpInstrumentation }, { UndiciInstrumentation }, { PgInstrumentation }] =
    await Promise.all([
      import("@opentelemetry/sdk-node"),
      import("@opentelemetry/instrumentation-http"),
      import("@opentelemetry/instrumentation-undici"),
      import("@opentelemetry/instrumentation-pg"),
    ]);
  // Constructing an instrumentation already hooks require().
  const plainRequire = Module.prototype.require;
  const instrumentations = [
    // The server opens each request's span itself (scripts/serve.ts), continuing an incoming
    // traceparent: a second server span per request would only duplicate it.
    new HttpInstrumentation({ disableIncomingRequestInstrumentation: true }),
    new UndiciInstrumentation({
      // A merchant's webhook URL may carry a secret of theirs in its query string: spans keep the
      // URL without it (the app's outgoing requests all go through undici or fetch).
      startSpanHook: (request) => ({
        "url.full": withoutQuery(request.path, request.origin),
        "url.query": undefined,
      }),
    }),
    // A span per pool checkout doubled the database spans; waiting for a connection still shows
    // as the gap before a query.
    new PgInstrumentation({ requireParentSpan: true, ignoreConnectSpans: true }),
  ];
  const sdk = new NodeSDK({
    serviceName: process.env.OTEL_SERVICE_NAME ?? "crypto-checkout",
    spanProcessors: options.spanProcessors,
    // Metrics are Prometheus's (/api/metrics) and logs are JSON on stdout; unless asked, the SDK
    // would record and export both again over OTLP, at a cost on every request and query.
    ...(process.env.OTEL_METRICS_EXPORTER ? {} : { metricReaders: [] }),
    ...(process.env.OTEL_LOGS_EXPORTER ? {} : { logRecordProcessors: [] }),
    instrumentations,
  });
  sdk.start();
  // The instrumentations patch modules from a hook on every require() call, and Next.js calls
  // require() on every request (its manifests): a module resolution per call. What they patch is
  // loaded now, through the hook, and then the hook comes off.
  const [{ default: pg }] = await Promise.all([import("pg"), import("node:http"), import("node:https")]);
  Module.prototype.require = plainRequire;
  keepQueuedQueriesInTheirTrace(pg.Pool.prototype);
  if (process.env.NEXT_OTEL_VERBOSE !== "1") keepNextJsOutOfTracing(instrumentations);
  return () => sdk.shutdown();
}

function withoutQuery(path: string, origin: string) {
  const url = new URL(path, origin);
  url.search = "";
  return url.toString();
}

type ConnectCallback = (...args: unknown[]) => void;

/**
 * With every connection in use, pg-pool queues a query's connect callback and calls it from the
 * release of another query, in that query's context: the query's span would join another request's
 * trace. PgInstrumentation binds the callback to its caller's context only together with a span
 * per checkout, which ignoreConnectSpans leaves out; this binds it without the span.
 */
function keepQueuedQueriesInTheirTrace(pool: { connect: (callback?: ConnectCallback) => unknown }) {
  const connect = pool.connect;
  pool.connect = function (this: unknown, callback?: ConnectCallback) {
    return connect.call(this, callback && context.bind(context.active(), callback));
  };
}

/**
 * Next.js traces its own phases (proxy, module loading, handler, response: about ten spans per
 * request) whenever a tracer provider is registered globally or a recording span is active, and
 * that machinery was half of tracing's CPU cost per request (bench/checkout-sessions), for spans
 * that tell an operator little. So the SDK's provider comes off the global API: our spans and the
 * instrumentations use it directly, and requests run under a non-recording stand-in for their
 * span (spans.ts). NEXT_OTEL_VERBOSE=1 leaves it registered, and Next.js records every phase.
 */
function keepNextJsOutOfTracing(instrumentations: { setTracerProvider(provider: TracerProvider): void }[]) {
  const provider = (trace.getTracerProvider() as ProxyTracerProvider).getDelegate();
  trace.disable();
  for (const instrumentation of instrumentations) instrumentation.setTracerProvider(provider);
  setTracerProvider(provider);
}
