import { createPublicClient, type Hex, http, type PublicClient, parseAbi } from "viem";
import type { NetworkConfig, PriceFeedConfig } from "../chains/networks";
import { Money } from "../money/decimal";

// Chainlink's AggregatorV3Interface, the part a reader needs. Read with plain eth_calls on the
// network's own RPC: no API key, no third-party price service.
const aggregatorAbi = parseAbi([
  "function decimals() view returns (uint8)",
  "function latestRoundData() view returns (uint80 roundId, int256 answer, uint256 startedAt, uint256 updatedAt, uint80 answeredInRound)",
]);

/** A feed's latest answer: the USD price of one unit of the asset, and when the feed set it. */
export type FeedReading = { usd: string; updatedAt: Date };

/** A reading is reused this long: a quote costs no round trip while buyers arrive in bursts. */
export const feedCacheMs = 5_000;

const clients = new Map<string, PublicClient>();
const decimalsOf = new Map<string, Promise<number>>();
const recent = new Map<string, { readAt: number; reading: Promise<FeedReading> }>();

function clientFor(network: NetworkConfig) {
  let client = clients.get(network.rpcUrl);
  if (!client) {
    // One quick retry: a buyer waits on this read, and the next source is a fallback away.
    client = createPublicClient({ transport: http(network.rpcUrl, { timeout: 5_000, retryCount: 1 }) });
    clients.set(network.rpcUrl, client);
  }
  return client;
}

async function readOnChain(network: NetworkConfig, feed: PriceFeedConfig, key: string): Promise<FeedReading> {
  const client = clientFor(network);
  const address = feed.address as Hex;
  let decimals = decimalsOf.get(key);
  if (!decimals) {
    decimals = client.readContract({ address, abi: aggregatorAbi, functionName: "decimals" });
    decimalsOf.set(key, decimals);
    decimals.catch(() => decimalsOf.delete(key));
  }
  const [places, [, answer, , updatedAt]] = await Promise.all([
    decimals,
    client.readContract({ address, abi: aggregatorAbi, functionName: "latestRoundData" }),
  ]);
  if (answer <= 0n) throw new Error(`${feed.pair} feed answered ${answer}`);
  return {
    usd: new Money(answer.toString()).div(new Money(10).pow(places)).toFixed(),
    updatedAt: new Date(Number(updatedAt) * 1000),
  };
}

/** True when the reading may price a quote at `now`: no older than the feed's limit. */
export const isFresh = (reading: FeedReading, maxAgeSeconds: number, now: Date) =>
  now.getTime() - reading.updatedAt.getTime() <= maxAgeSeconds * 1000;

/**
 * The feed's latest answer, read at most once per `feedCacheMs` (by `now`). A reading that is
 * already stale is not kept, so the next quote asks the chain again; callers still check freshness,
 * so a cached reading never outlives the feed's limit.
 */
export async function readPriceFeed(
  network: NetworkConfig,
  feed: PriceFeedConfig,
  now: Date,
): Promise<FeedReading> {
  const key = `${network.rpcUrl}|${feed.address.toLowerCase()}`;
  const cached = recent.get(key);
  const age = cached ? now.getTime() - cached.readAt : Number.POSITIVE_INFINITY;
  if (cached && age >= 0 && age < feedCacheMs) return cached.reading;
  const reading = readOnChain(network, feed, key);
  recent.set(key, { readAt: now.getTime(), reading });
  const forget = () => {
    if (recent.get(key)?.reading === reading) recent.delete(key);
  };
  reading.then((value) => {
    if (!isFresh(value, feed.maxAgeSeconds, now)) forget();
  }, forget);
  return reading;
}
