import { config } from "../config";
import { digestsEqual, hashSecret } from "../crypto/tokens";
import { notFound, unauthenticated } from "../errors";

/** Whether the request carries the configured metrics token (compared in constant time). */
export function hasMetricsToken(headers: Headers): boolean {
  const expected = config().metricsToken;
  const presented = /^Bearer (\S+)$/.exec(headers.get("authorization") ?? "")?.[1];
  return (
    expected !== undefined &&
    presented !== undefined &&
    digestsEqual(hashSecret(presented), hashSecret(expected))
  );
}

/** Refuses a metrics scrape: 404 while no token is configured (metrics are off), 401 without it. */
export function assertMetricsAccess(headers: Headers) {
  if (config().metricsToken === undefined) throw notFound("endpoint", "path");
  if (!hasMetricsToken(headers)) {
    throw unauthenticated("invalid_metrics_token", "Send the metrics token as `Authorization: Bearer …`.");
  }
}
