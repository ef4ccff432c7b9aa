import type { PublicClient } from "viem";
import { type ChainClient, chainFamily } from "../chains/chain-families";
import { findToken, type NetworkConfig, type TokenConfig } from "../chains/networks";
import type { Db } from "../db/client";
import type { SweepStrategy } from "../generated/prisma/client";
import { newId } from "../ids";
import { Money } from "../money/decimal";
import { findUsdPrice, PriceUnavailable } from "../prices/find-usd-price";
import { dustThreshold } from "./dust-threshold";

type Candidate = {
  invoiceId: string;
  organizationId: string;
  token: string;
  depositAddress: string;
  confirmed: string;
  swept: string;
  settlementAddress: string | null;
};

export type PlanOptions = {
  /** Per "network/TOKEN": the least value swept, overriding the cost-scaled default. */
  dust?: Record<string, string>;
};

export type PlanResult = { planned: number; belowDust: number; noPrice: number; noSettlementWallet: number };

/**
 * The native coin's price in each token of the network, from the same fresh prices quotes use;
 * null for a token with no fresh price (its value then waits: dust cannot be judged).
 */
async function coinPricesInTokens(network: NetworkConfig, now: Date): Promise<Map<string, string | null>> {
  const prices = new Map<string, string | null>();
  const coin = network.tokens.find((token) => !token.address);
  for (const token of network.tokens) {
    if (!token.address) {
      prices.set(token.symbol, "1");
      continue;
    }
    try {
      if (!coin) throw new PriceUnavailable(`${network.id} has no native coin`);
      const [coinUsd, tokenUsd] = await Promise.all([
        findUsdPrice(coin.symbol, network, now),
        findUsdPrice(token.peggedTo ?? token.symbol, network, now),
      ]);
      prices.set(token.symbol, new Money(coinUsd.usd).div(tokenUsd.usd).toString());
    } catch (error) {
      if (!(error instanceof PriceUnavailable)) throw error;
      prices.set(token.symbol, null);
    }
  }
  return prices;
}

/** How a network's sweeps are planned: what counts, what is too small to move, and how it moves. */
type PlanRules = {
  /** Payments at or below this position count; null: every confirmed one (counted at the commitment). */
  depth: bigint | null;
  /** The least value swept in a token; null when it cannot be judged (no fresh price). */
  threshold: (token: TokenConfig) => Money | null;
  strategy: (token: TokenConfig) => SweepStrategy;
};

/**
 * EVM: payments at the confirmation depth; value below the cost-scaled dust threshold waits (the
 * deposit address pays its sweep's fee); the coin sends itself, a token needs a gas top-up.
 */
async function depositAddressRules(
  network: NetworkConfig,
  client: PublicClient,
  options: PlanOptions,
): Promise<PlanRules> {
  const head = await client.getBlockNumber();
  const { maxFeePerGas } = await client.estimateFeesPerGas();
  const coinPrices = await coinPricesInTokens(network, new Date());
  return {
    depth: head - BigInt(network.confirmations) + 1n,
    threshold: (token) =>
      dustThreshold(
        token,
        maxFeePerGas,
        coinPrices.get(token.symbol) ?? null,
        options.dust?.[`${network.id}/${token.symbol}`],
      ),
    strategy: (token) => (token.address ? "GAS_TOP_UP" : "NATIVE"),
  };
}

/**
 * A family with service transfers (Solana): every confirmed payment (the watcher counted it at the
 * network's commitment) is swept whole, one sweep per invoice, from the shared receiving wallet;
 * the fee payer pays the fee, so no value is too small to move.
 */
const serviceTransferRules: PlanRules = {
  depth: null,
  threshold: () => new Money(0),
  strategy: () => "DIRECT",
};

/**
 * Plans sweeps on one network: for each invoice, the value of its payments that are confirmed and
 * at the network's confirmation depth, less what earlier sweeps took, becomes a sweep to the
 * organization's settlement wallet for the network as it is now (recorded on the sweep). Value
 * below the dust threshold waits; later payments to the same address add up and go together.
 * Without a settlement wallet nothing is planned. A failed sweep keeps its value reserved until
 * it is retried, so nothing is swept twice.
 */
export async function planSweeps(
  database: Db,
  network: NetworkConfig,
  client: ChainClient,
  options: PlanOptions,
): Promise<PlanResult> {
  const rules = chainFamily(network).serviceTransfers
    ? serviceTransferRules
    : await depositAddressRules(network, client as PublicClient, options);
  const { depth } = rules;
  // One planner per network at a time (a transaction-scoped advisory lock), so two sweepers
  // cannot both plan the same value.
  return database.$transaction(
    async (tx) => {
      await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtext(${`plan-sweeps:${network.id}`}))`;
      const candidates = await tx.$queryRaw<Candidate[]>`
    SELECT i."id" AS "invoiceId", i."organizationId", i."token", i."depositAddress",
           p."confirmed"::text AS "confirmed",
           COALESCE((SELECT SUM(s."amount") FROM "Sweep" s WHERE s."invoiceId" = i."id"), 0)::text AS "swept",
           w."address" AS "settlementAddress"
    FROM "Invoice" i
    JOIN (SELECT "invoiceId", SUM("amount") AS "confirmed" FROM "Payment"
          WHERE "status" = 'CONFIRMED' AND (${depth}::bigint IS NULL OR "blockNumber" <= ${depth})
          GROUP BY "invoiceId") p ON p."invoiceId" = i."id"
    LEFT JOIN "SettlementWallet" w ON w."organizationId" = i."organizationId" AND w."network" = i."network"
    WHERE i."network" = ${network.id}
      AND p."confirmed" > COALESCE((SELECT SUM(s."amount") FROM "Sweep" s WHERE s."invoiceId" = i."id"), 0)`;
      const result: PlanResult = { planned: 0, belowDust: 0, noPrice: 0, noSettlementWallet: 0 };
      for (const candidate of candidates) {
        const token = findToken(network, candidate.token);
        if (!token) continue;
        if (!candidate.settlementAddress) {
          result.noSettlementWallet++;
          continue;
        }
        const amount = new Money(candidate.confirmed).minus(candidate.swept);
        const threshold = rules.threshold(token);
        if (threshold === null) {
          result.noPrice++;
          continue;
        }
        if (amount.lt(threshold)) {
          result.belowDust++;
          continue;
        }
        await tx.sweep.create({
          data: {
            id: newId("sweep"),
            organizationId: candidate.organizationId,
            invoiceId: candidate.invoiceId,
            network: network.id,
            token: token.symbol,
            strategy: rules.strategy(token),
            fromAddress: candidate.depositAddress,
            toAddress: candidate.settlementAddress,
            amount: amount.toFixed(),
          },
        });
        result.planned++;
      }
      return result;
    },
    { timeout: 60_000 },
  );
}
