import type { NetworkConfig } from "../chains/networks";
import { config } from "../config";
import { log } from "../log";
import { isFresh, readPriceFeed } from "./read-price-feed";

/** No source has a fresh price for the pair. */
export class PriceUnavailable extends Error {}

/** The USD price of one unit of an asset, with where it came from and when it was set. */
export type UsdPrice = { usd: string; source: string; updatedAt: Date };

/**
 * The USD price of `asset` (a coin's symbol or a fiat code) at `now`, from the first fresh source:
 *   1. a price feed for ASSET/USD on `network` (the network the buyer pays on),
 *   2. a feed for it on any other configured network, in configuration order,
 *   3. the operator's SERVICE_RATES entry, while younger than its maxAgeSeconds.
 * A stale, failing or missing source moves on to the next; with none left the quote is refused
 * (PriceUnavailable), never priced from an old or default number.
 */
export async function findUsdPrice(asset: string, network: NetworkConfig, now: Date): Promise<UsdPrice> {
  if (asset === "USD") return { usd: "1", source: "USD", updatedAt: now };
  const pair = `${asset}/USD`;
  const others = config().networks.filter((candidate) => candidate.id !== network.id);
  const problems: string[] = [];
  for (const candidate of [network, ...others]) {
    for (const feed of candidate.priceFeeds ?? []) {
      if (feed.pair !== pair) continue;
      try {
        const reading = await readPriceFeed(candidate, feed, now);
        const source = `${pair} feed ${feed.address} on ${candidate.id}, updated ${reading.updatedAt.toISOString()}`;
        if (isFresh(reading, feed.maxAgeSeconds, now)) return { ...reading, source };
        problems.push(`${source}: older than ${feed.maxAgeSeconds} s`);
      } catch (error) {
        problems.push(
          `${pair} feed ${feed.address} on ${candidate.id}: ${(error as Error).message.split("\n")[0]}`,
        );
      }
    }
  }
  const configured = config().configuredRates[pair];
  if (configured) {
    const reading = { usd: configured.rate, updatedAt: configured.updatedAt };
    const source = `${pair} configured rate, updated ${configured.updatedAt.toISOString()}`;
    if (isFresh(reading, configured.maxAgeSeconds, now)) return { ...reading, source };
    problems.push(`${source}: older than ${configured.maxAgeSeconds} s`);
  }
  if (problems.length) log.warn({ pair, problems }, "no fresh price");
  throw new PriceUnavailable(`no fresh ${pair} price`);
}
