import { chainFamily } from "../chains/chain-families";
import type { NetworkConfig } from "../chains/networks";
import { config } from "../config";
import type { Db, Tx } from "../db/client";
import { ServiceError } from "../errors";
import type { Prisma } from "../generated/prisma/client";
import { log } from "../log";
import { fromBaseUnits, Money } from "../money/decimal";
import { findUsdPrice } from "../prices/find-usd-price";
import { processWide } from "../process-wide";
import { x402Networks, x402TransactionAssets } from "./x402-networks";

// What x402's gasless payments cost this service: the facilitator wallet (Solana: the fee payer)
// pays each settlement's gas, for every tenant, in the network's native coin
// (ChainFamily.nativeCoin, priced like any asset; ChainFamily.x402SettlementFee). So a network is offered only for prices that cover several settlements'
// gas, and each organization's settlements may spend a bounded amount of gas per UTC day
// (README, "Configuration": SERVICE_X402_GAS_MULTIPLE, SERVICE_X402_DAILY_GAS_BUDGET_USD).

/** A devnet's coin is test money: its gas counts only when told (to rehearse the limits). */
const countsGas = (network: NetworkConfig) => !network.devnet || config().x402.countDevnetGas;

/**
 * The USD value of `units` (base units: wei, lamports) of the network's native coin, or undefined
 * without a fresh price of it (SOL/USD is none until configured: README, "Networks").
 */
export async function nativeUsd(
  network: NetworkConfig,
  units: bigint,
  now: Date,
): Promise<Money | undefined> {
  if (!countsGas(network)) return new Money(0);
  const coin = chainFamily(network).nativeCoin(network);
  if (!coin) return undefined;
  const price = await findUsdPrice(coin.symbol, network, now).catch(() => undefined);
  return price && new Money(fromBaseUnits(units, coin.decimals)).times(price.usd);
}

const estimates = processWide(
  "x402-settlement-gas",
  () => new Map<string, { at: number; usd: Promise<Money | undefined> }>(),
);
/** Fees and prices move slowly next to quotes: one reading a minute per network is enough. */
const estimateTtlMs = 60_000;

/**
 * What one settlement's gas costs on `network` now, in USD, at the fees the facilitator would
 * offer (ChainFamily.x402SettlementFee); undefined when the fees or the coin's price cannot be
 * read (then nothing is offered on it).
 */
export function settlementGasUsd(network: NetworkConfig, now = new Date()): Promise<Money | undefined> {
  const cached = estimates.get(network.id);
  if (cached && now.getTime() - cached.at < estimateTtlMs) return cached.usd;
  const usd = (async () => {
    if (!countsGas(network)) return new Money(0);
    const fee = await chainFamily(network).x402SettlementFee(network);
    const value = await nativeUsd(network, fee, now);
    if (!value) throw new Error("no fresh price of the network's coin");
    return value;
  })().catch((error) => {
    // Not kept: the next request reads the fees and the price again.
    log.warn({ err: error, network: network.id }, "x402 settlement gas unreadable");
    estimates.delete(network.id);
    return undefined;
  });
  estimates.set(network.id, { at: now.getTime(), usd });
  return usd;
}

/**
 * Whether a price of `amountUsd` may be paid over x402 on `network`: it covers the gas multiple.
 * Unknown while the network's fees or its coin's price cannot be read: 503 `x402_gas_unavailable`
 * (a passing outage, not a price too low to ever pay), whatever the multiple: the daily budget
 * counts each settlement at this estimate, so one settled without it would count as free.
 */
export async function coversSettlementGas(network: NetworkConfig, amountUsd: string, now = new Date()) {
  const gas = await settlementGasUsd(network, now);
  if (gas === undefined) throw x402GasUnavailable();
  return new Money(amountUsd).gte(gas.times(config().x402.gasMultiple));
}

export const x402GasUnavailable = () =>
  new ServiceError(
    503,
    "api_error",
    "x402_gas_unavailable",
    "The network's fees cannot be read right now, so x402 cannot be offered; try again shortly or pay on the hosted page.",
    undefined,
    { "Retry-After": "15" },
  );

/** Why a price is not offered over x402: 409 `x402_price_below_gas`. */
export const x402PriceBelowGas = () =>
  new ServiceError(
    409,
    "invalid_request_error",
    "x402_price_below_gas",
    "This price is too low to settle over x402 (the network's gas would take too much of it); pay on the hosted page.",
  );

const startOfUtcDay = (now: Date) =>
  new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()));

const nextUtcDay = (now: Date) => new Date(startOfUtcDay(now).getTime() + 24 * 60 * 60 * 1000);

export type SettlementGasEstimates = Map<string, Money | undefined>;

/** One settlement's gas now, per x402 network id (undefined where unreadable): read ahead of a transaction. */
export async function settlementGasEstimates(now = new Date()): Promise<SettlementGasEstimates> {
  const networks = new Set([...x402Networks(), ...x402TransactionAssets()].map((asset) => asset.networkId));
  const settled = config().networks.filter((network) => networks.has(network.id));
  return new Map(
    await Promise.all(
      settled.map(async (network) => [network.id, await settlementGasUsd(network, now)] as const),
    ),
  );
}

/**
 * An organization's x402 gas today (since midnight UTC) against its budget, from the database
 * alone: the gas recorded on its settlements, whatever their outcome (a reverted transfer paid its
 * gas too), and at the estimate each one that sent or may still send a transaction and has none
 * recorded (under way, or its gas unread). A refused payment that sent nothing costs nothing, nor
 * does one whose transaction expired without landing (its window or blockhash lapsed). One
 * statement, per network: it runs in every 402 and twice in every paid request.
 */
async function gasSpentToday(
  database: Db | Tx,
  organizationId: string,
  estimates: SettlementGasEstimates,
  now: Date,
) {
  const since = startOfUtcDay(now);
  const networks = await database.$queryRaw<
    { network: string; recorded: Prisma.Decimal | null; open: bigint }[]
  >`
    SELECT "network", SUM("gasUsd") AS "recorded",
      COUNT(*) FILTER (WHERE "gasUsd" IS NULL AND (
        "status" <> 'FAILED'
        OR ("transaction" IS NOT NULL
          AND ("errorReason" IS NULL OR "errorReason" NOT IN ('settlement_expired', 'settlement_interrupted')))
      )) AS "open"
    FROM "X402Settlement"
    WHERE "organizationId" = ${organizationId} AND "createdAt" >= ${since}
    GROUP BY "network"`;
  let spent = new Money(0);
  for (const { network, recorded, open } of networks) {
    if (recorded !== null) spent = spent.plus(recorded.toString());
    const estimate = estimates.get(network);
    if (estimate) spent = spent.plus(estimate.times(Number(open)));
  }
  return {
    spentUsd: spent,
    budgetUsd: new Money(config().x402.dailyGasBudgetUsd),
    resetsAt: nextUtcDay(now),
  };
}

/** An organization's x402 gas today against its daily budget, as the Settlement page shows it. */
export async function x402GasToday(database: Db, organizationId: string, now = new Date()) {
  return gasSpentToday(database, organizationId, await settlementGasEstimates(now), now);
}

/** 429 `x402_gas_budget_exhausted` unless the organization's gas today is below its budget. */
function checkBudget(
  { spentUsd, budgetUsd, resetsAt }: Awaited<ReturnType<typeof gasSpentToday>>,
  now: Date,
) {
  if (spentUsd.lt(budgetUsd)) return;
  const retryAfter = Math.max(1, Math.ceil((resetsAt.getTime() - now.getTime()) / 1000));
  throw new ServiceError(
    429,
    "rate_limit_error",
    "x402_gas_budget_exhausted",
    "This merchant's x402 payments are paused until midnight UTC (its daily gas budget is spent); pay on the hosted page instead.",
    undefined,
    { "Retry-After": String(retryAfter) },
  );
}

/**
 * Refuses a new x402 payment for an organization whose settlements spent their gas budget for
 * the day: 429 `x402_gas_budget_exhausted`, with Retry-After until midnight UTC. The buyer may
 * still pay on the hosted page; payments already presented still answer their result. An early
 * answer only: concurrent payments all pass it, and `reserveX402Gas` decides.
 */
export async function checkX402GasBudget(database: Db, organizationId: string, now = new Date()) {
  checkBudget(await x402GasToday(database, organizationId, now), now);
}

/**
 * Decides, in the transaction that records a payment's settlement, whether the organization's
 * budget still takes it (`checkX402GasBudget`'s 429 if not). It holds the organization's lock until
 * the transaction ends, so of concurrent payments each counts the ones recorded before it: the
 * budget is exceeded by one settlement's gas at most. `estimates` are read before the
 * transaction, which so waits on no chain.
 */
export async function reserveX402Gas(
  tx: Tx,
  organizationId: string,
  estimates: SettlementGasEstimates,
  now: Date,
) {
  await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtext(${`x402-gas:${organizationId}`}))`;
  checkBudget(await gasSpentToday(tx, organizationId, estimates, now), now);
}
