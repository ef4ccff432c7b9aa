import { type Span, SpanStatusCode, trace } from "@opentelemetry/api";

// Spans of our own around each request's handler and each job run. Without a started SDK (no
// OTEL_* configuration) the API's tracer is a no-op, so these cost next to nothing.
const tracer = trace.getTracer("crypto-checkout");

async function inSpan<T>(name: string, attributes: Record<string, string>, run: (span: Span) => Promise<T>) {
  return tracer.startActiveSpan(name, { attributes }, async (span) => {
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
 * One span per request, named after its route template, with its request id. Under `next start`
 * Next.js has already opened that span (same name, same route): it gets the attributes, rather than
 * a copy of itself as a child.
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
    { "http.request.method": method, "http.route": route, "request.id": requestId },
    run,
  );
}

/** One span per pass of a periodic task, in either job engine. */
export function inJobSpan<T>(task: string, run: () => Promise<T>) {
  return inSpan(`job ${task}`, { "job.task": task }, run);
}

/** Adds the organization a request acts for to its span. */
export function annotateOrganization(organizationId: string) {
  trace.getActiveSpan()?.setAttribute("organization.id", organizationId);
}
