import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { POST as createSession } from "@/app/api/checkout-sessions/route";
import { POST as start } from "@/app/api/public/payments/route";
import { setDevnetPrice } from "@/lib/chains/devnet";
import type { PriceFeedConfig } from "@/lib/chains/networks";
import { startPayment } from "@/lib/checkout/start-payment";
import { db } from "@/lib/db/client";
import { callRoute } from "@/scripts/test-support/call-route";
import { createTestOrganization } from "@/scripts/test-support/fixtures";
import { startTestDevnet, type TestDevnet } from "@/scripts/test-support/test-devnet";

// Quotes priced from mock Chainlink aggregators on a real Hardhat node: fresh, stale, missing and
// broken feeds, and the configured fallback.
let devnet: TestDevnet;
let feeds: Record<string, PriceFeedConfig>;
const noContract = `0x${"8".repeat(40)}`;

beforeAll(async () => {
  devnet = await startTestDevnet({ confirmations: 1 });
  const network = devnet.network;
  const deployed = network.priceFeeds ?? [];
  feeds = Object.fromEntries(deployed.map((feed) => [feed.pair, feed]));
  // A feed that is no contract at all: reading it fails.
  network.priceFeeds = [...deployed, { pair: "ABC/USD", address: noContract, maxAgeSeconds: 3600 }];
  network.tokens.push(
    { symbol: "XYZ", decimals: 18, address: `0x${"6".repeat(40)}` },
    { symbol: "ABC", decimals: 18, address: `0x${"7".repeat(40)}` },
  );
  // A second network on the same node whose own ETH/USD feed is broken: its quotes fall back to the
  // devnet's feed (the next configured network).
  const mirror = {
    id: "mirror",
    name: "Mirror",
    chainId: network.chainId,
    rpcUrl: devnet.rpcUrl,
    confirmations: 1,
    tokens: [{ symbol: "ETH", decimals: 18 }],
    priceFeeds: [{ pair: "ETH/USD", address: noContract, maxAgeSeconds: 3600 }],
  };
  process.env.SERVICE_NETWORKS = JSON.stringify([mirror, network]);
  // GBP has a configured rate behind its feed; EUR does not.
  process.env.SERVICE_RATES = JSON.stringify({
    "GBP/USD": { rate: "1.25", updatedAt: new Date().toISOString(), maxAgeSeconds: 3600 },
  });
}, 120_000);
afterAll(async () => devnet?.stop());

/** Sets a feed's answer; `ageSeconds` pins its update time that far behind the chain's clock. */
async function setFeed(pair: string, usd: bigint, ageSeconds?: number) {
  const block = await devnet.client.getBlock();
  const updatedAt = ageSeconds === undefined ? 0n : block.timestamp - BigInt(ageSeconds);
  await setDevnetPrice(devnet.rpcUrl, feeds[pair].address, usd.toString(), updatedAt);
}

async function session(amount: string, currency: string) {
  const merchant = await createTestOrganization();
  const created = await callRoute(createSession, "/api/checkout-sessions", {
    headers: { ...merchant.auth, "idempotency-key": `feeds-${Math.random()}-${Date.now()}` },
    body: { amount, currency },
  });
  return created.json.id as string;
}

const startRoute = (checkoutSessionId: string, token: string, network = "devnet") =>
  callRoute(start, "/api/public/payments", { body: { checkoutSessionId, network, token } });

async function expectNothingCreated(checkoutSessionId: string) {
  expect(await db().invoice.count({ where: { checkoutSessionId } })).toBe(0);
  expect(
    await db().event.count({
      where: { payload: { path: ["checkoutSessionId"], equals: checkoutSessionId } },
    }),
  ).toBe(0);
  expect((await db().checkoutSession.findUniqueOrThrow({ where: { id: checkoutSessionId } })).status).toBe(
    "OPEN",
  );
}

describe("quotes from price feeds on the devnet", () => {
  it("prices ETH from a fresh feed and records the feed as the source", async () => {
    const id = await session("25.00", "USD");
    const response = await startRoute(id, "ETH");
    expect(response.status).toBe(201);
    expect(response.json.amountDue).toBe("0.008333333333333334");
    const invoice = await db().invoice.findUniqueOrThrow({ where: { id: response.json.id } });
    expect(invoice.quoteSource).toMatch(
      new RegExp(`^ETH/USD feed ${feeds["ETH/USD"].address} on devnet, updated \\d{4}-`),
    );
    expect(invoice.rate.toString()).toBe("0.000333333333333333");
    expect(invoice.amountUsd.toFixed(2)).toBe("25.00");
  });

  it("falls back to the same pair's feed on the next configured network when the paying network's fails", async () => {
    const response = await startRoute(await session("25.00", "USD"), "ETH", "mirror");
    expect(response.status).toBe(201);
    expect(response.json.amountDue).toBe("0.008333333333333334");
    const invoice = await db().invoice.findUniqueOrThrow({ where: { id: response.json.id } });
    expect(invoice.quoteSource).toMatch(new RegExp(`^ETH/USD feed ${feeds["ETH/USD"].address} on devnet,`));
  });

  it.each([
    ["a stale EUR/USD feed with no configured EUR rate", "EUR", "USDC"],
    ["a token without any feed or configured rate", "USD", "XYZ"],
    ["a feed address that holds no contract", "USD", "ABC"],
  ])("refuses %s with 400 quote_unavailable and creates nothing", async (_case, currency, token) => {
    // Two hours behind the chain's clock; the devnet feeds allow one.
    await setFeed("EUR/USD", 1n, 7200);
    const id = await session("10.00", currency);
    const response = await startRoute(id, token);
    expect(response.status).toBe(400);
    expect(response.json.error).toMatchObject({
      type: "invalid_request_error",
      code: "quote_unavailable",
      param: "token",
    });
    await expectNothingCreated(id);
  });

  it("falls back to the configured rate when the feed is stale, and back to the feed once it is fresh", async () => {
    await setFeed("GBP/USD", 2n, 7200);
    const first = await startRoute(await session("10.00", "GBP"), "USDC");
    expect(first.status).toBe(201);
    expect(first.json.amountDue).toBe("12.500000");
    // A stale reading is not cached: the next quote asks the feed again.
    await setFeed("GBP/USD", 2n);
    const second = await startRoute(await session("10.00", "GBP"), "USDC");
    expect(second.json.amountDue).toBe("20.000000");
    const sources = await db().invoice.findMany({
      where: { id: { in: [first.json.id, second.json.id] } },
      orderBy: { createdAt: "asc" },
    });
    expect(sources.map((invoice) => invoice.quoteSource.split(",")[0])).toEqual([
      "GBP/USD configured rate",
      `GBP/USD feed ${feeds["GBP/USD"].address} on devnet`,
    ]);
  });

  it("reads a feed again once the brief cache has passed", async () => {
    const quoteAt = async (now: Date) => {
      const id = await session("35.00", "USD");
      return (await startPayment(db(), { checkoutSessionId: id, network: "devnet", token: "ETH" }, now))
        .amountDue;
    };
    const now = Date.now() + 60_000;
    expect((await quoteAt(new Date(now))).toString()).toBe("0.011666666666666667");
    await setFeed("ETH/USD", 3500n);
    // Within the cache the reading is reused; after it, the new price is read.
    expect((await quoteAt(new Date(now + 1_000))).toString()).toBe("0.011666666666666667");
    expect((await quoteAt(new Date(now + 10_000))).toString()).toBe("0.01");
  });
});
