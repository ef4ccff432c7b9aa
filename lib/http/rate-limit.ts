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

export type RateLimitScope = "apiKey" | "publicIp" | "oauthRegistration";

const holder = globalThis as typeof globalThis & {
  __cryptoCheckoutLimiters?: Record<RateLimitScope, RateLimiterAbstract>;
};

/** One limiter per scope, over the configured store. Exported so tests can make a second "instance". */
export function createRateLimiters(
  rateLimits = config().rateLimits,
  postgresPool: () => pg.Pool = () => new pg.Pool({ connectionString: config().databaseUrl, max: 4 }),
): Record<RateLimitScope, RateLimiterAbstract> {
  const windows = {
    apiKey: { points: rateLimits.apiKeyPerSecond, duration: 1, keyPrefix: "api" },
    publicIp: { points: rateLimits.publicPerMinute, duration: 60, keyPrefix: "ip" },
    // Each OAuth client registration is a stored row: few per address and hour is plenty.
    oauthRegistration: { points: 20, duration: 60 * 60, keyPrefix: "oauth-reg" },
  };
  if (rateLimits.store === "postgres") {
    const storeClient = postgresPool();
    const make = (options: (typeof windows)[RateLimitScope]) =>
      new RateLimiterPostgres({
        ...options,
        storeClient,
        storeType: "pool",
        tableName: "rate_limits",
        tableCreated: true,
      });
    return {
      apiKey: make(windows.apiKey),
      publicIp: make(windows.publicIp),
      oauthRegistration: make(windows.oauthRegistration),
    };
  }
  return {
    apiKey: new RateLimiterMemory(windows.apiKey),
    publicIp: new RateLimiterMemory(windows.publicIp),
    oauthRegistration: new RateLimiterMemory(windows.oauthRegistration),
  };
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

/** The client address as the nearest proxy (or Next.js itself) reported it. */
export function clientAddress(headers: Headers): string {
  const forwarded = headers.get("x-forwarded-for");
  const nearest = forwarded?.split(",").at(-1)?.trim();
  return nearest || headers.get("x-real-ip") || "unknown";
}
