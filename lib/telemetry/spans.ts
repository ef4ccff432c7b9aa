import type { IncomingMessage, ServerResponse } from "node:http";
import {
  context,
  isSpanContextValid,
  propagation,
  ROOT_CONTEXT,
  type Span,
  SpanKind,
  type SpanOptions,
  SpanStatusCode,
  trace,
} from "@opentelemetry/api";
import { processWide } from "../process-wide";

// Spans of our own around each request's handler and each job run. Without a started SDK (no
// OTEL_* configuration) the API's tracer is a no-op, so these cost next to nothing.
// Looked up per span, not once at load: loaded before the SDK starts, as start-tracing.ts and the
// server load it, a copy of the API that is not the SDK's (Next.js's bundles have their own) would
// keep a no-op tracer for good.
const tracer = () => trace.getTracer("crypto-checkout");

async function inSpan<T>(name: string, options: SpanOptions, run: (span: Span) => Promise<T>) {
  return tracer().startActiveSpan(name, options, async (span) => {
    try {
      return await run(span);
    } catch (error) {
      span.recordException(error as Error);
      span.setStatus({ code: SpanStatusCode.ERROR });
      throw error;
    } finally {
      span.end();
    }
  });
}

/**
 * Request spans open in this process, by span id. Process-wide: the server and Next.js's bundles
 * each load a copy of this module, and Next.js's tracer wrapper must find the server's.
 */
const openRequestSpans = processWide("open-request-spans", () => new Map<string, Span>());

/** The open request span `span` is, or stands for (Next.js passes it on as a remote parent). */
export function openRequestSpan(span: Span): Span | undefined {
  return openRequestSpans.get(span.spanContext().spanId);
}

/**
 * The server's span for an incoming request, from its arrival until its response has closed and
 * Next.js is done with it, continuing the caller's `traceparent`. Next.js's own request spans fold
 * into it (start-tracing.ts): with a proxy, Next.js handles each request in two passes and would
 * record a span for each.
 */
export function inIncomingRequestSpan(
  request: IncomingMessage,
  response: ServerResponse,
  handle: () => Promise<void>,
) {
  const parent = propagation.extract(ROOT_CONTEXT, request.headers);
  const method = request.method ?? "GET";
  const span = tracer().startSpan(
    method,
    {
      kind: SpanKind.SERVER,
      // The path only: a query string may carry a token.
      attributes: { "http.request.method": method, "url.path": (request.url ?? "/").split("?")[0] },
    },
    parent,
  );
  // Tracing off: no span, and nothing else to do.
  if (!isSpanContextValid(span.spanContext())) return handle();
  const spanId = span.spanContext().spanId;
  if (span.isRecording()) openRequestSpans.set(spanId, span);
  // Next.js names the span after the route once its handling is done, which may be after the
  // response has closed: the span ends when both have happened.
  let unfinished = 2;
  const finish = () => {
    unfinished -= 1;
    if (unfinished > 0) return;
    openRequestSpans.delete(spanId);
    span.setAttribute("http.response.status_code", response.statusCode);
    if (response.statusCode >= 500) span.setStatus({ code: SpanStatusCode.ERROR });
    span.end();
  };
  response.once("close", finish);
  return context.with(trace.setSpan(parent, span), handle).finally(finish);
}

/**
 * One span per request, named after its route template, with its request id. In the running app the
 * request's span is open already (the server's, or Next.js's under bare `next start`): it gets the
 * attributes, rather than a copy of itself as a child.
 */
export function inRequestSpan<T>(
  method: string,
  route: string,
  requestId: string,
  run: (span: Span) => Promise<T>,
) {
  const active = trace.getActiveSpan();
  if (active?.isRecording()) {
    active.setAttributes({ "http.route": route, "request.id": requestId });
    return run(active);
  }
  return inSpan(
    `${method} ${route}`,
    { attributes: { "http.request.method": method, "http.route": route, "request.id": requestId } },
    run,
  );
}

/** One span per pass of a periodic task, in either job engine. */
export function inJobSpan<T>(task: string, run: () => Promise<T>) {
  // A trace of its own, even when a request woke it: its timer's later passes would otherwise all
  // join that request's trace.
  return inSpan(`job ${task}`, { root: true, attributes: { "job.task": task } }, run);
}

/** Adds the organization a request acts for to its span. */
export function annotateOrganization(organizationId: string) {
  trace.getActiveSpan()?.setAttribute("organization.id", organizationId);
}
