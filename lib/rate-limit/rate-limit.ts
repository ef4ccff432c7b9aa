import type pg from "pg";
import {
  type RateLimiterAbstract,
  RateLimiterMemory,
  RateLimiterPostgres,
  type RateLimiterRes,
} from "rate-limiter-flexible";
import { config } from "../config";
import { createPool } from "../db/create-pool";
import { rateLimited, ServiceError } from "../errors";
import { clientLimitKey } from "../net/client-address";
import { processWide } from "../process-wide";

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
  | "paymentSession"
  // Failed authentications per client address: guessing credentials costs a client its access.
  | "authFailure"
  // Agent browser setups started per client address.
  | "agentSetup"
  // Wrong typed codes (agent setup codes per signed-in user, pairing codes per signup): codes are
  // short enough to type, so a few wrong tries end the guessing.
  | "wrongCode"
  // OAuth client registrations per client address: each one is a stored row.
  | "oauthRegistration"
  // Settlement wallet changes asked per organization: each one emails every owner.
  | "settlementChange"
  // Refunds asked by agent credentials and OAuth tokens per organization: a proposal emails every owner.
  | "agentRefund"
  // x402 requests (quotes and payments) per client address: each one prices and may settle.
  | "x402Client";

const perHour = (points: number, keyPrefix: string) => ({ points, duration: 60 * 60, keyPrefix });

/** One limiter per scope, over the configured store. Exported so tests can make a second "instance". */
export function createRateLimiters(
  rateLimits = config().rateLimits,
  postgresPool: () => pg.Pool = () => createPool(config().databaseUrl, 4),
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
    authFailure: { points: rateLimits.authFailuresPerMinute, duration: 60, keyPrefix: "authfail" },
    agentSetup: perHour(rateLimits.agentSetupsPerHour, "agent-setup"),
    oauthRegistration: perHour(20, "oauth-reg"),
    wrongCode: perHour(5, "wrong-code"),
    settlementChange: perHour(30, "settlement-change"),
    agentRefund: perHour(30, "agent-refund"),
    x402Client: { points: rateLimits.x402PerClientPerMinute, duration: 60, keyPrefix: "x402-ip" },
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

function limiters() {
  return processWide("rate-limiters", () => createRateLimiters());
}

const tooMany = (msBeforeNext: number) => rateLimited(Math.max(1, Math.ceil(msBeforeNext / 1000)));

/**
 * The limiter's "over budget" answer: a RateLimiterRes, not an Error (a store failure is one).
 * Not `instanceof`: Next.js's bundles each load their own copy of rate-limiter-flexible, while
 * the limiters are process-wide, made by whichever copy came first, so the class can differ.
 */
function isOverBudget(rejection: unknown): rejection is RateLimiterRes {
  return !(rejection instanceof Error) && typeof (rejection as RateLimiterRes)?.msBeforeNext === "number";
}

/** Counts one request against `key` in `scope`; throws the 429 (with Retry-After) when over. */
export async function consumeRateLimit(scope: RateLimitScope, key: string): Promise<void> {
  try {
    await limiters()[scope].consume(key);
  } catch (rejection) {
    if (isOverBudget(rejection)) throw tooMany(rejection.msBeforeNext);
    throw rejection;
  }
}

/** Throws the 429 if `key` has already spent its budget in `scope`, without counting anything. */
async function assertWithinRateLimit(scope: RateLimitScope, key: string): Promise<void> {
  const limiter = limiters()[scope];
  const state = await limiter.get(key);
  if (state && state.consumedPoints > limiter.points) throw tooMany(state.msBeforeNext);
}

/**
 * Runs an authentication; a client (address, or IPv6 /64) that has failed too often gets 429
 * without running it, and a 401 it throws counts against that client.
 */
export function limitFailedAuthentications<T>(
  clientAddress: string,
  authenticate: () => Promise<T>,
): Promise<T> {
  return limitFailures("authFailure", clientLimitKey(clientAddress), 401, authenticate);
}

/**
 * Runs `attempt` unless `key` has spent its budget of failures in `scope` (then 429); a
 * ServiceError of status `failureStatus` it throws counts as one failure.
 */
export async function limitFailures<T>(
  scope: RateLimitScope,
  key: string,
  failureStatus: number,
  attempt: () => Promise<T>,
): Promise<T> {
  await assertWithinRateLimit(scope, key);
  try {
    return await attempt();
  } catch (error) {
    if (error instanceof ServiceError && error.status === failureStatus) await consumeRateLimit(scope, key);
    throw error;
  }
}
