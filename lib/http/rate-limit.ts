import pg from "pg";
import {
  type RateLimiterAbstract,
  RateLimiterMemory,
  RateLimiterPostgres,
  RateLimiterRes,
} from "rate-limiter-flexible";
import { config } from "../config";
import { rateLimited } from "../errors";

// rate-limiter-flexible keeps the counters: in memory by default (per app instance), or in
// PostgreSQL (shared by every instance) with SERVICE_RATE_LIMIT_STORE=postgres.

export type RateLimitScope =
  | "apiKey"
  | "publicIp"
  // Outgoing emails (sign-in links, invitations): per client address, per recipient, per organization.
  | "emailClient"
  | "emailAddress"
  | "emailOrganization"
  // Buyers' starts: sessions opened from paylinks and payments started, per client; sessions
  // per paylink; payment starts per session.
  | "checkoutClient"
  | "checkoutPaylink"
  | "paymentSession";

const perHour = (points: number, keyPrefix: string) => ({ points, duration: 60 * 60, keyPrefix });

const holder = globalThis as typeof globalThis & {
  __cryptoCheckoutLimiters?: Record<RateLimitScope, RateLimiterAbstract>;
};

/** One limiter per scope, over the configured store. Exported so tests can make a second "instance". */
export function createRateLimiters(
  rateLimits = config().rateLimits,
  postgresPool: () => pg.Pool = () => new pg.Pool({ connectionString: config().databaseUrl, max: 4 }),
): Record<RateLimitScope, RateLimiterAbstract> {
  const windows: Record<RateLimitScope, { points: number; duration: number; keyPrefix: string }> = {
    apiKey: { points: rateLimits.apiKeyPerSecond, duration: 1, keyPrefix: "api" },
    publicIp: { points: rateLimits.publicPerMinute, duration: 60, keyPrefix: "ip" },
    emailClient: perHour(rateLimits.emailsPerClientPerHour, "mail-ip"),
    emailAddress: perHour(rateLimits.emailsPerAddressPerHour, "mail-to"),
    emailOrganization: perHour(rateLimits.emailsPerOrganizationPerHour, "mail-org"),
    checkoutClient: perHour(rateLimits.checkoutsPerClientPerHour, "co-ip"),
    checkoutPaylink: perHour(rateLimits.checkoutsPerPaylinkPerHour, "co-pl"),
    paymentSession: perHour(rateLimits.paymentStartsPerSessionPerHour, "pay-cs"),
  };
  const storeClient = rateLimits.store === "postgres" ? postgresPool() : undefined;
  const make = (options: (typeof windows)[RateLimitScope]): RateLimiterAbstract =>
    storeClient
      ? new RateLimiterPostgres({
          ...options,
          storeClient,
          storeType: "pool",
          tableName: "rate_limits",
          tableCreated: true,
        })
      : new RateLimiterMemory(options);
  return Object.fromEntries(
    Object.entries(windows).map(([scope, options]) => [scope, make(options)]),
  ) as Record<RateLimitScope, RateLimiterAbstract>;
}

/** Counts one request against `key` in `scope`; throws the 429 (with Retry-After) when over. */
export async function consumeRateLimit(scope: RateLimitScope, key: string): Promise<void> {
  holder.__cryptoCheckoutLimiters ??= createRateLimiters();
  try {
    await holder.__cryptoCheckoutLimiters[scope].consume(key);
  } catch (rejection) {
    if (rejection instanceof RateLimiterRes)
      throw rateLimited(Math.max(1, Math.ceil(rejection.msBeforeNext / 1000)));
    throw rejection;
  }
}

// Callers of the limits read the client address from here too.
export { clientAddress } from "./client-address";
