import { metrics } from "./metrics";

/** Counts one answered request and its latency under the route's template. */
export function observeRequest(method: string, route: string, status: number, startedMs: number) {
  const { httpRequests, httpDuration } = metrics();
  httpRequests.inc({ method, route, status: String(status) });
  httpDuration.observe({ method, route }, (performance.now() - startedMs) / 1000);
}
