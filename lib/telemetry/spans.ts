import type { IncomingMessage, ServerResponse } from "node:http";
import {
  type Context,
  context,
  isSpanContextValid,
  propagation,
  ROOT_CONTEXT,
  type Span,
  SpanKind,
  type SpanOptions,
  SpanStatusCode,
  type TracerProvider,
  trace,
} from "@opentelemetry/api";
import { maskTarget } from "../log";
import { processWide } from "../process-wide";

// Spans of our own around each request and each job run. Without a started SDK (no OTEL_*
// configuration) the tracer is the API's no-op one, so these cost next to nothing.

/**
 * The SDK's tracer provider, which start-tracing.ts keeps off the global API (so Next.js does not
 * trace its internals). Process-wide: the server and Next.js's bundles each load a copy of this
 * module.
 */
const tracing = processWide("tracing", () => ({ provider: undefined as TracerProvider | undefined }));

export function setTracerProvider(provider: TracerProvider) {
  tracing.provider = provider;
}

// Looked up per span, not once at load: modules load before tracing starts.
const tracer = () => (tracing.provider ?? trace.getTracerProvider()).getTracer("crypto-checkout");

async function inSpan<T>(
  name: string,
  options: SpanOptions,
  parent: Context,
  run: (span: Span) => Promise<T>,
) {
  return tracer().startActiveSpan(name, options, parent, async (span) => {
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
 * Where a request's context holds the server's span for it, beside the non-recording stand-in that
 * is its active span. Symbol.for: the server and Next.js's bundles each load a copy of this module.
 */
const requestSpanKey = Symbol.for("crypto-checkout.request-span");

/** The span of the request or job under way: the server's own span for a request. */
function activeSpan(): Span | undefined {
  const active = context.active();
  return (active.getValue(requestSpanKey) as Span | undefined) ?? trace.getSpan(active);
}

/**
 * The server's span for an incoming request, from its arrival until its response has closed and
 * Next.js is done with it, continuing the caller's `traceparent`. The request runs under a
 * non-recording stand-in with the same ids: queries and outbound calls become its children, and
 * Next.js, which traces its own phases whenever a recording span is active, leaves it alone.
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
      // The path only (a query string may carry a token), a claim link's token masked.
      attributes: {
        "http.request.method": method,
        "url.path": maskTarget((request.url ?? "/").split("?")[0]),
      },
    },
    parent,
  );
  // Tracing off: no span, and nothing else to do.
  if (!isSpanContextValid(span.spanContext())) return handle();
  // The route names the span (inRequestSpan) while Next.js handles the request, which may go on
  // after the response has closed: the span ends when both have happened.
  let unfinished = 2;
  const finish = () => {
    unfinished -= 1;
    if (unfinished > 0) return;
    span.setAttribute("http.response.status_code", response.statusCode);
    if (response.statusCode >= 500) span.setStatus({ code: SpanStatusCode.ERROR });
    span.end();
  };
  response.once("close", finish);
  const standIn = trace.wrapSpanContext(span.spanContext());
  return context.with(trace.setSpan(parent, standIn).setValue(requestSpanKey, span), handle).finally(finish);
}

/**
 * One span per request, named after its route template, with its request id. In the running app the
 * request's span is open already (the server's): it gets the name and attributes, rather than a copy
 * of itself as a child.
 */
export function inRequestSpan<T>(
  method: string,
  route: string,
  requestId: string,
  run: (span: Span) => Promise<T>,
) {
  const active = activeSpan();
  if (active?.isRecording()) {
    active.updateName(`${method} ${route}`);
    active.setAttributes({ "http.route": route, "request.id": requestId });
    return run(active);
  }
  return inSpan(
    `${method} ${route}`,
    { attributes: { "http.request.method": method, "http.route": route, "request.id": requestId } },
    context.active(),
    run,
  );
}

/** One span per pass of a periodic task, in either job engine. */
export function inJobSpan<T>(task: string, run: () => Promise<T>) {
  // A trace of its own, even when a request woke it: its timer's later passes would otherwise all
  // join that request's trace.
  return inSpan(`job ${task}`, { attributes: { "job.task": task } }, ROOT_CONTEXT, run);
}

/** Adds the organization a request acts for to its span. */
export function annotateOrganization(organizationId: string) {
  activeSpan()?.setAttribute("organization.id", organizationId);
}
