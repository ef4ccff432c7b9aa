// x402's gas, counted on the devnet as on a real network (SERVICE_X402_COUNT_DEVNET_GAS): a price
// below the gas multiple is not offered, an organization's settlements stop at its daily gas
// budget, and the facilitator wallet is reported for its alert. Real HTTP, a real Hardhat node,
// real PostgreSQL, the official x402 client, this process's built-in facilitator.
process.env.SERVICE_SWEEPER = "in-process";
process.env.SERVICE_RATE_LIMIT_X402_PER_CLIENT_PER_MINUTE = "1000";
process.env.SERVICE_X402_COUNT_DEVNET_GAS = "true";
process.env.SERVICE_X402_GAS_MULTIPLE = "10";
// Less than one settlement's gas: the first payment of a day spends it all.
process.env.SERVICE_X402_DAILY_GAS_BUDGET_USD = "0.000001";
process.env.SERVICE_METRICS_TOKEN = "metrics-token-for-tests-0123456789";

import { randomBytes } from "node:crypto";
import { decodePaymentRequiredHeader } from "@x402/core/http";
import { type Hex, parseUnits } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GET as metricsRoute } from "@/app/api/metrics/route";
import { setDevnetPrice } from "@/lib/chains/devnet";
import { evmChainId } from "@/lib/chains/networks";
import { config } from "@/lib/config";
import { db } from "@/lib/db/client";
import { scanNetwork } from "@/lib/payments/scan-network";
import { sweeperKeysFromMnemonic } from "@/lib/sweeps/sweeper-keys";
import { findSettlementGas } from "@/lib/x402/find-settlement-gas";
import { reportFacilitatorWallets } from "@/lib/x402/report-facilitator-wallets";
import { settlementGasUsd } from "@/lib/x402/x402-gas";
import { callRoute } from "@/scripts/test-support/call-route";
import { createTestInvoice, createTestX402Settlement } from "@/scripts/test-support/fixtures";
import { hardhatMnemonic, startTestDevnet, type TestDevnet } from "@/scripts/test-support/test-devnet";
import { sendX402Payment, serveX402App, type X402App, x402Agent } from "@/scripts/test-support/x402-app";

let devnet: TestDevnet;
let app: X402App;
/** One settlement's expected gas on the devnet, in USD, at its fees and ETH/USD feed. */
let gasUsd: number;

beforeAll(async () => {
  devnet = await startTestDevnet({ confirmations: 1 });
  app = await serveX402App();
  const network = config().networks[0];
  gasUsd = Number(await settlementGasUsd(network!));
}, 120_000);
afterAll(async () => {
  await app?.close();
  await devnet?.stop();
});

const price = (multiple: number) => (Math.ceil(gasUsd * multiple * 100) / 100).toFixed(2);

describe("x402 gas", () => {
  it("counts the devnet's gas at its ETH price", () => {
    expect(gasUsd).toBeGreaterThan(0);
  });

  it("offers a network only for prices of at least the gas multiple: below, 409 x402_price_below_gas", async () => {
    const cheap = await app.paylink(price(5));
    const response = await fetch(cheap.url);
    expect(response.status).toBe(409);
    expect(response.headers.get("PAYMENT-REQUIRED")).toBeNull();
    expect((await response.json()).error).toMatchObject({
      code: "x402_price_below_gas",
      message: expect.not.stringMatching(/https?:|viem|0x/),
    });

    const fair = await app.paylink(price(20));
    const offered = await fetch(fair.url);
    expect(offered.status).toBe(402);
    expect(
      decodePaymentRequiredHeader(offered.headers.get("PAYMENT-REQUIRED") as string).accepts,
    ).toHaveLength(1);
  });

  it("stops an organization's x402 payments at its daily gas budget (429 with Retry-After), and no other's", async () => {
    const { url, organization } = await app.paylink(price(20));
    const { account, client, pay } = await x402Agent(devnet, "1000");
    // A quote taken before the budget is spent, paid after.
    const early = await client.createPaymentPayload(
      decodePaymentRequiredHeader((await fetch(url)).headers.get("PAYMENT-REQUIRED") as string),
    );
    expect((await pay(url)).status).toBe(200);
    const settlement = await db().x402Settlement.findFirstOrThrow({
      where: { organizationId: organization.id },
    });
    expect(Number(settlement.gasUsd)).toBeGreaterThan(0);
    const balance = await devnet.usdcBalance(account.address);

    const probe = await fetch(url);
    expect(probe.status).toBe(429);
    expect(Number(probe.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(Number(probe.headers.get("retry-after"))).toBeLessThanOrEqual(86_400);
    expect((await probe.json()).error.code).toBe("x402_gas_budget_exhausted");
    const late = await sendX402Payment(url, early);
    expect(late.status).toBe(429);
    expect((await late.json()).error.code).toBe("x402_gas_budget_exhausted");
    expect(await devnet.usdcBalance(account.address)).toBe(balance);
    expect(await db().x402Settlement.count({ where: { organizationId: organization.id } })).toBe(1);

    // Another merchant's budget is its own.
    const other = await app.paylink(price(20));
    expect((await pay(other.url)).status).toBe(200);
    expect(await devnet.usdcBalance(account.address)).toBe(balance - parseUnits(price(20), 6));
  });

  it("takes concurrent payments only while the budget lasts: of three at once, one settles", async () => {
    const { url, organization } = await app.paylink(price(20));
    // One after another: the funder mints to each.
    const agents = [
      await x402Agent(devnet, "100"),
      await x402Agent(devnet, "100"),
      await x402Agent(devnet, "100"),
    ];
    const payments = await Promise.all(
      agents.map(async ({ client }) =>
        client.createPaymentPayload(
          decodePaymentRequiredHeader((await fetch(url)).headers.get("PAYMENT-REQUIRED") as string),
        ),
      ),
    );
    const answers = await Promise.all(payments.map((payment) => sendX402Payment(url, payment)));
    expect(answers.map((answer) => answer.status).sort()).toEqual([200, 429, 429]);
    for (const answer of answers.filter((each) => each.status === 429))
      expect((await answer.json()).error.code).toBe("x402_gas_budget_exhausted");
    const balances = await Promise.all(agents.map(({ account }) => devnet.usdcBalance(account.address)));
    expect(balances.map(String).sort()).toEqual(
      [parseUnits("100", 6) - parseUnits(price(20), 6), parseUnits("100", 6), parseUnits("100", 6)]
        .map(String)
        .sort(),
    );
    expect(await db().x402Settlement.count({ where: { organizationId: organization.id } })).toBe(1);
  });

  describe("counts each settlement of the day that cost gas (the budget is less than one settlement's)", () => {
    const cases: [string, "SETTLING" | "SETTLED" | "FAILED", boolean, string | null, number, string?][] = [
      ["a settled transfer's recorded gas", "SETTLED", true, "0.01", 429],
      ["a reverted transfer's recorded gas (FAILED)", "FAILED", true, "0.01", 429],
      [
        "a FAILED settlement that sent a transaction whose gas was not read: at the estimate",
        "FAILED",
        true,
        null,
        429,
      ],
      ["a settlement under way: at the estimate", "SETTLING", false, null, 429],
      ["a FAILED settlement that sent nothing: nothing", "FAILED", false, null, 402],
      [
        "a FAILED settlement whose transaction expired without landing: nothing",
        "FAILED",
        true,
        null,
        402,
        "settlement_expired",
      ],
      [
        "one interrupted (its window closed on it, nothing landed): nothing",
        "FAILED",
        true,
        null,
        402,
        "settlement_interrupted",
      ],
    ];
    it.each(cases)("%s", async (_name, status, sent, gas, answer, errorReason) => {
      const { url, organization } = await app.paylink(price(20));
      const invoice = await createTestInvoice(organization.id, { amount: price(20), status: "CONFIRMED" });
      await createTestX402Settlement(invoice, {
        asset: devnet.usdc.toLowerCase(),
        amount: parseUnits(price(20), 6).toString(),
        status,
        transaction: sent ? `0x${randomBytes(32).toString("hex")}` : null,
        gasUsd: gas,
        errorReason,
      });
      const response = await fetch(url);
      expect(response.status).toBe(answer);
      if (answer === 429) expect((await response.json()).error.code).toBe("x402_gas_budget_exhausted");
    });
  });

  describe("applies the gas multiple to what a session still owes", () => {
    const cases: [string, (due: string) => string, number, string | null][] = [
      [
        "all but a cent paid: 409 x402_price_below_gas",
        (due) => (Number(due) - 0.01).toFixed(2),
        409,
        "x402_price_below_gas",
      ],
      ["a cent paid: the rest is offered", () => "0.01", 402, null],
    ];
    it.each(cases)("%s", async (_name, paid, status, code) => {
      const { id, url } = await app.session(price(20));
      const started = await callRoute(
        (await import("@/app/api/public/payments/route")).POST,
        "/api/public/payments",
        { body: { checkoutSessionId: id, network: "devnet", token: "USDC" } },
      );
      expect(started.status).toBe(201);
      await devnet.mintUsdc(started.json.depositAddress, paid(price(20)));
      await scanNetwork(db(), config().networks[0]!, devnet.client);
      const response = await fetch(url);
      expect(response.status).toBe(status);
      if (code) expect((await response.json()).error.code).toBe(code);
    });
  });

  it("counts a transfer's gas as unknown, never free, while no facilitator wallet of ours is known", async () => {
    const { url, organization } = await app.paylink(price(20));
    const { pay } = await x402Agent(devnet, "100");
    expect((await pay(url)).status).toBe(200);
    const row = await db().x402Settlement.findFirstOrThrow({ where: { organizationId: organization.id } });
    const network = config().networks[0]!;
    const transaction = row.transaction as Hex;
    const ours = sweeperKeysFromMnemonic(hardhatMnemonic).facilitatorWallet(network.chainId!).address;
    const counted = await findSettlementGas(network, transaction, row, [ours.toLowerCase()], new Date());
    expect(Number(counted)).toBeGreaterThan(0);
    expect(await findSettlementGas(network, transaction, row, [], new Date())).toBeUndefined();
    const stranger = `0x${randomBytes(20).toString("hex")}`;
    expect(Number(await findSettlementGas(network, transaction, row, [stranger], new Date()))).toBe(0);
  });

  it("answers 503 x402_gas_unavailable while the gas cannot be priced, not a price too low, and offers it again after", async () => {
    const network = config().networks[0]!;
    const feed = (network.priceFeeds ?? []).find((candidate) => candidate.pair === "ETH/USD")!;
    const { url } = await app.paylink(price(20));
    const block = await devnet.client.getBlock();
    // The ETH/USD feed two hours old: no fresh price of the coin that pays the gas.
    await setDevnetPrice(devnet.rpcUrl, feed.address, "3000", block.timestamp - 7200n);
    try {
      // A reading a minute on: the estimate kept from earlier tests is past its time.
      expect(await settlementGasUsd(network, new Date(Date.now() + 61_000))).toBeUndefined();
      const quoted = await fetch(url);
      expect(quoted.status).toBe(503);
      expect(quoted.headers.get("retry-after")).toBe("15");
      expect((await quoted.json()).error.code).toBe("x402_gas_unavailable");
    } finally {
      await setDevnetPrice(devnet.rpcUrl, feed.address, "3000");
    }
    expect(Number(await settlementGasUsd(network, new Date(Date.now() + 61_000)))).toBeGreaterThan(0);
    expect((await fetch(url)).status).toBe(402);
  });

  it("reports the facilitator wallet for the FacilitatorWalletLow alert", async () => {
    const network = config().networks[0]!;
    await reportFacilitatorWallets(db(), hardhatMnemonic, [network]);
    const wallet = await db().facilitatorWallet.findUniqueOrThrow({ where: { network: network.id } });
    const address = sweeperKeysFromMnemonic(hardhatMnemonic).facilitatorWallet(evmChainId(network)).address;
    expect(wallet).toMatchObject({ address, low: false });
    expect(Number(wallet.balance)).toBeGreaterThan(0);

    await db().facilitatorWallet.update({ where: { network: network.id }, data: { low: true } });
    const scraped = await callRoute(metricsRoute, "/api/metrics", {
      headers: { authorization: "Bearer metrics-token-for-tests-0123456789" },
    });
    expect(scraped.status).toBe(200);
    expect(scraped.text).toContain(`checkout_x402_facilitator_wallet_low{network="${network.id}"} 1`);
    expect(scraped.text).toMatch(
      new RegExp(`checkout_x402_facilitator_wallet_balance\\{network="${network.id}"\\} [0-9.]+`),
    );
  });
});
