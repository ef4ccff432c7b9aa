import { config } from "../config";
import { forbidden } from "../errors";

/**
 * Browsers attach cookies to cross-site requests too; a state change made with a cookie must
 * come from one of our own pages, which browsers mark with our Origin.
 */
export function assertSameOrigin(headers: Headers): void {
  if (headers.get("origin") !== new URL(config().baseUrl).origin) {
    throw forbidden("cross_origin_request", "This endpoint only answers the service's own pages.");
  }
}
