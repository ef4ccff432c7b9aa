import Module from "node:module";
import {
  type Context,
  context,
  type Span,
  type SpanOptions,
  type Tracer,
  type TracerProvider,
  trace,
} from "@opentelemetry/api";
import type { SpanProcessor } from "@opentelemetry/sdk-trace";
import { openRequestSpan } from "./spans";

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
  const sdk = new NodeSDK({
    serviceName: process.env.OTEL_SERVICE_NAME ?? "crypto-checkout",
    spanProcessors: options.spanProcessors,
    // Metrics are Prometheus's (/api/metrics) and logs are JSON on stdout; unless asked, the SDK
    // would record and export both again over OTLP, at a cost on every request and query.
    ...(process.env.OTEL_METRICS_EXPORTER ? {} : { metricReaders: [] }),
    ...(process.env.OTEL_LOGS_EXPORTER ? {} : { logRecordProcessors: [] }),
    instrumentations: [
      // Next.js opens each request's trace itself, continuing an incoming traceparent: a server
      // span per incoming request would only duplicate it. Outgoing requests keep theirs.
      new HttpInstrumentation({ disableIncomingRequestInstrumentation: true }),
      new UndiciInstrumentation(),
      // A span per pool checkout doubled the database spans; waiting for a connection still shows
      // as the gap before a query.
      new PgInstrumentation({ requireParentSpan: true, ignoreConnectSpans: true }),
    ],
  });
  sdk.start();
  // The instrumentations patch modules from a hook on every require() call, and Next.js calls
  // require() on every request (its manifests): a module resolution per call. What they patch is
  // loaded now, through the hook, and then the hook comes off.
  const [{ default: pg }] = await Promise.all([import("pg"), import("node:http"), import("node:https")]);
  Module.prototype.require = plainRequire;
  keepQueuedQueriesInTheirTrace(pg.Pool.prototype);
  if (process.env.NEXT_OTEL_VERBOSE !== "1") keepOnlyOutermostNextSpans();
  return () => sdk.shutdown();
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
 * Next.js wraps each request's phases (proxy, module loading, handler, response) in spans of their
 * own, about ten per request, which tell an operator nothing that the request's span and its
 * database and outbound spans do not. Its outermost spans fold into the server's request span
 * (scripts/serve.ts), or stay where there is none; a nested one is replaced by its parent's
 * context, not recorded (NEXT_OTEL_VERBOSE=1 keeps them all). Next.js itself wraps the global
 * provider's getTracer this way.
 */
function keepOnlyOutermostNextSpans() {
  const provider: TracerProvider = trace.getTracerProvider();
  const getTracer = provider.getTracer.bind(provider);
  // Next.js asks for its tracer on every span: one wrapper per version, not one per call (and Next.js
  // then wraps the same object once, not anew each time).
  const wrapped = new Map<string | undefined, Tracer>();
  provider.getTracer = (name, version, options) => {
    if (name !== "next.js") return getTracer(name, version, options);
    let tracer = wrapped.get(version);
    if (!tracer) {
      tracer = outermostOnly(getTracer(name, version, options));
      wrapped.set(version, tracer);
    }
    return tracer;
  };
}

/** The span of this process that a span started in `parent` would be a child of, if any. */
function localParent(parent: Context): Span | undefined {
  const span = trace.getSpan(parent);
  return span?.isRecording() ? span : undefined;
}

/**
 * The server's request span when `parent` is it: directly, or passed on in the headers from
 * Next.js's proxy pass to its render pass. Not a span folded into it, which stands for it too.
 */
function requestParent(parent: Context): Span | undefined {
  const span = trace.getSpan(parent);
  const request = span && openRequestSpan(span);
  return request && (span === request || !span.isRecording()) ? request : undefined;
}

/**
 * Next.js's span for a request, folded into the server's span for it: what Next.js sets (the route
 * as its name, status, attributes) lands there, and it ends when the response closes, not here.
 */
function foldedInto(request: Span): Span {
  return new Proxy(request, {
    get(target, key) {
      if (key === "end") return () => {};
      const value = Reflect.get(target, key);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
}

function outermostOnly(tracer: Tracer): Tracer {
  const unrecorded = (span: Span) => trace.wrapSpanContext(span.spanContext());
  return {
    startSpan(name: string, options?: SpanOptions, parent: Context = context.active()) {
      const request = requestParent(parent);
      if (request) return foldedInto(request);
      const local = localParent(parent);
      return local ? unrecorded(local) : tracer.startSpan(name, options, parent);
    },
    startActiveSpan: ((name: string, ...rest: unknown[]) => {
      // (name, fn), (name, options, fn) or (name, options, context, fn)
      const run = rest.at(-1) as (span: Span) => unknown;
      const parent = rest.length === 3 ? (rest[1] as Context) : context.active();
      const request = requestParent(parent);
      if (request) {
        const folded = foldedInto(request);
        return context.with(trace.setSpan(parent, folded), run, undefined, folded);
      }
      const local = localParent(parent);
      if (local) return run(unrecorded(local));
      return (tracer.startActiveSpan as (...args: unknown[]) => unknown)(name, ...rest);
    }) as Tracer["startActiveSpan"],
  };
}
