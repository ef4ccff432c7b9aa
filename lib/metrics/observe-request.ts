import { trace } from "@opentelemetry/api";
import { metrics } from "./metrics";

/** Names the request's trace span after its route, with the request id; a no-op without tracing. */
export function annotateRequestSpan(method: string, route: string, requestId: string) {
  const span = trace.getActiveSpan();
  if (!span) return;
  span.updateName(`${method} ${route}`);
  span.setAttributes({ "http.route": route, "request.id": requestId });
}

/** Adds the organization a request acts for to its trace span. */
export function annotateOrganization(organizationId: string) {
  trace.getActiveSpan()?.setAttribute("organization.id", organizationId);
}

/** Counts one answered request and its latency under the route's template. */
export function observeRequest(method: string, route: string, status: number, startedMs: number) {
  const { httpRequests, httpDuration } = metrics();
  httpRequests.inc({ method, route, status: String(status) });
  httpDuration.observe({ method, route }, (performance.now() - startedMs) / 1000);
}
