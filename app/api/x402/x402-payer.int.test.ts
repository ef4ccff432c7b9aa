// Payers that would spend the facilitator wallet's gas on settlements bound to fail: a contract
// whose signature holds only in verify's simulation, a balance a pending transfer already spends,
// a second authorization while the payer's first still settles. Real HTTP, a real Hardhat node
// (mining held where the mempool matters), real PostgreSQL, the official x402 client, this
// process's built-in facilitator.
process.env.SERVICE_SWEEPER = "in-process";
process.env.SERVICE_RATE_LIMIT_X402_PER_CLIENT_PER_MINUTE = "1000";

import { decodePaymentRequiredHeader } from "@x402/core/http";
import { concat, createWalletClient, erc20Abi, type Hex, http, parseUnits } from "viem";
import { hardhat } from "viem/chains";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/db/client";
import { sweeperKeysFromMnemonic } from "@/lib/sweeps/sweeper-keys";
import { hardhatMnemonic, startTestDevnet, type TestDevnet } from "@/scripts/test-support/test-devnet";
import { sendX402Payment, serveX402App, type X402App, x402Agent } from "@/scripts/test-support/x402-app";

let devnet: TestDevnet;
let app: X402App;

beforeAll(async () => {
  devnet = await startTestDevnet({ confirmations: 1 });
  app = await serveX402App();
  // The facilitator wallet's first gas comes with a first payment, mined as usual.
  const first = await app.paylink("0.50");
  expect((await (await x402Agent(devnet, "1")).pay(first.url)).status).toBe(200);
}, 120_000);
afterAll(async () => {
  await devnet?.rpc("evm_setAutomine", [true]);
  await devnet?.mine(1);
  await app?.close();
  await devnet?.stop();
});

const facilitatorBalance = () =>
  devnet.client.getBalance({
    address: sweeperKeysFromMnemonic(hardhatMnemonic).facilitatorWallet(devnet.network.chainId).address,
  });

async function untilPending(count: number) {
  for (let waited = 0; (await devnet.pendingTransactions()).length < count; waited += 50) {
    if (waited > 20_000) throw new Error("nothing was submitted");
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** A quote of `url` and the agent's signed payment of it. */
async function signedPayment(url: string, client: Awaited<ReturnType<typeof x402Agent>>["client"]) {
  const quote = await fetch(url);
  expect(quote.status).toBe(402);
  return client.createPaymentPayload(
    decodePaymentRequiredHeader(quote.headers.get("PAYMENT-REQUIRED") as string),
  );
}

// Hand-assembled runtime code. Any call answers ERC-1271's magic value (0x1626ba7e)...
const erc1271Yes = "0x631626ba7e60e01b60005260206000f3";
// ...or only at gas price 0, as in an eth_call, and reverts in a real transaction.
const erc1271YesAtGasPriceZero = "0x3a15600957600080fd5b631626ba7e60e01b60005260206000f3";
const delegate = "0x000000000000000000000000000000000000d1e7";
const gatedDelegate = "0x000000000000000000000000000000000000d1e8";

/** A fresh agent pays a new paylink, its address holding `code` once it signed. */
async function payWithCode(code: Hex) {
  await devnet.rpc("hardhat_setCode", [delegate, erc1271Yes]);
  await devnet.rpc("hardhat_setCode", [gatedDelegate, erc1271YesAtGasPriceZero]);
  const { url, organization } = await app.paylink("1.00");
  const { account, client } = await x402Agent(devnet, "5");
  const payment = await signedPayment(url, client);
  await devnet.rpc("hardhat_setCode", [account.address, code]);
  const gas = await facilitatorBalance();
  const response = await sendX402Payment(url, payment);
  const settlements = await db().x402Settlement.findMany({ where: { organizationId: organization.id } });
  return { response, settlements, account, gas };
}

describe("a payer with code", () => {
  const cases: [string, Hex, number, string | null][] = [
    [
      "a contract wallet whose signature holds only at gas price 0: 402 payer_not_supported, nothing sent",
      erc1271YesAtGasPriceZero,
      402,
      "payer_not_supported",
    ],
    ["a contract that signs anything: 402 payer_not_supported", erc1271Yes, 402, "payer_not_supported"],
    // The token checks an account with code by ERC-1271, so the delegate answers for its signature
    // and may turn to no once our transfer waits in the mempool.
    [
      "an EIP-7702 delegated EOA whose delegate signs anything: 402 payer_not_supported",
      concat(["0xef0100", delegate]),
      402,
      "payer_not_supported",
    ],
    [
      "an EIP-7702 delegated EOA whose delegate signs only at gas price 0: 402 payer_not_supported",
      concat(["0xef0100", gatedDelegate]),
      402,
      "payer_not_supported",
    ],
    ["an account without code (a key signs): paid", "0x", 200, null],
  ];

  it.each(cases)("%s", async (_name, code, status, errorCode) => {
    const { response, settlements, account, gas } = await payWithCode(code);
    expect(response.status).toBe(status);
    if (errorCode === null) {
      expect(settlements).toMatchObject([{ status: "SETTLED" }]);
      expect(await devnet.usdcBalance(account.address)).toBe(parseUnits("4", 6));
      return;
    }
    expect((await response.json()).error).toMatchObject({ code: errorCode, message: expect.any(String) });
    expect(settlements).toHaveLength(0);
    expect(await facilitatorBalance()).toBe(gas);
    expect(await devnet.usdcBalance(account.address)).toBe(parseUnits("5", 6));
  });
});

describe("one balance backs one settlement", () => {
  it("verifies at the pending block: a balance a transfer in the mempool spends is refused, nothing sent", async () => {
    const { url, organization } = await app.paylink("1.00");
    const { account, client, pay } = await x402Agent(devnet, "1");
    await devnet.sendEth(account.address, "1");
    const payment = await signedPayment(url, client);
    await devnet.rpc("evm_setAutomine", [false]);
    try {
      // The payer spends its balance elsewhere; the transfer waits in the mempool.
      await createWalletClient({ account, chain: hardhat, transport: http(devnet.rpcUrl) }).writeContract({
        address: devnet.usdc,
        abi: erc20Abi,
        functionName: "transfer",
        args: [devnet.wallet.account.address, parseUnits("1", 6)],
      });
      await untilPending(1);
      const gas = await facilitatorBalance();
      const response = await sendX402Payment(url, payment);
      expect(response.status).toBe(402);
      expect((await response.json()).error.code).toBe("invalid_exact_evm_insufficient_balance");
      // The official client asks afresh and is refused alike.
      expect((await pay(url)).status).toBe(402);
      expect(await devnet.pendingTransactions()).toHaveLength(1);
      expect(await facilitatorBalance()).toBe(gas);
      expect(await db().x402Settlement.count({ where: { organizationId: organization.id } })).toBe(0);
    } finally {
      await devnet.rpc("evm_setAutomine", [true]);
      await devnet.mine(1);
    }
    expect(await devnet.usdcBalance(account.address)).toBe(0n);
  }, 60_000);

  it("refuses a second authorization while the payer's first still settles (402 payer_busy), and takes it once that one is settled", async () => {
    const first = await app.paylink("1.00");
    const second = await app.paylink("1.00");
    const { account, client } = await x402Agent(devnet, "2");
    const firstPayment = await signedPayment(first.url, client);
    const secondPayment = await signedPayment(second.url, client);
    await devnet.rpc("evm_setAutomine", [false]);
    let settling: Promise<Response>;
    try {
      settling = sendX402Payment(first.url, firstPayment);
      await untilPending(1);
      const busy = await sendX402Payment(second.url, secondPayment);
      expect(busy.status).toBe(402);
      expect((await busy.json()).error).toMatchObject({
        code: "payer_busy",
        message: expect.stringMatching(/again/),
      });
      expect(await devnet.pendingTransactions()).toHaveLength(1);
      expect(await db().x402Settlement.count({ where: { organizationId: second.organization.id } })).toBe(0);
    } finally {
      await devnet.rpc("evm_setAutomine", [true]);
      await devnet.mine(1);
    }
    expect((await settling).status).toBe(200);
    // Busy is for now: the same authorization, sent again, is paid.
    expect((await sendX402Payment(second.url, secondPayment)).status).toBe(200);
    expect(await devnet.usdcBalance(account.address)).toBe(0n);
  }, 60_000);
});
