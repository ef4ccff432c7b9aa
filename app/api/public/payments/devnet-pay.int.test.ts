import { formatUnits, getAddress, type Hex } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GET as retrieveSession } from "@/app/api/checkout-sessions/[id]/route";
import { POST as createSession } from "@/app/api/checkout-sessions/route";
import { POST as createRefund } from "@/app/api/private/refunds/route";
import { devnetTestWallet } from "@/lib/chains/devnet-account";
import { config } from "@/lib/config";
import { db } from "@/lib/db/client";
import { scanNetwork } from "@/lib/payments/scan-network";
import { advanceRefunds } from "@/lib/refunds/advance-refunds";
import { sweeperKeysFromMnemonic } from "@/lib/sweeps/sweeper-keys";
import { callRoute } from "@/scripts/test-support/call-route";
import { createTestOrganization } from "@/scripts/test-support/fixtures";
import { hardhatMnemonic, startTestDevnet, type TestDevnet } from "@/scripts/test-support/test-devnet";
import { POST as devnetPay } from "./[id]/devnet-pay/route";
import { GET } from "./[id]/route";
import { POST as start } from "./route";

// The test wallet against a real Hardhat node; a second, non-devnet network must stay unpayable.
let devnet: TestDevnet;

beforeAll(async () => {
  devnet = await startTestDevnet({ confirmations: 1 });
  process.env.SERVICE_NETWORKS = JSON.stringify([
    devnet.network,
    // Same node, but not flagged: the test wallet must refuse it all the same.
    { id: "base", rpcUrl: devnet.rpcUrl },
  ]);
}, 120_000);
afterAll(async () => devnet?.stop());

async function invoice(token = "USDC", network = "devnet") {
  const merchant = await createTestOrganization();
  const created = await callRoute(createSession, "/api/checkout-sessions", {
    headers: { ...merchant.auth, "idempotency-key": `devnet-pay-${Math.random()}-${Date.now()}` },
    body: { amount: "30.00", currency: "USD" },
  });
  const started = await callRoute(start, "/api/public/payments", {
    body: { checkoutSessionId: created.json.id, network, token },
  });
  expect(started.status).toBe(201);
  return { ...merchant, sessionId: created.json.id as string, payment: started.json };
}

const pay = (id: string, body: Record<string, unknown> = {}) =>
  callRoute(devnetPay, `/api/public/payments/${id}/devnet-pay`, { body, params: { id } });
const watch = () =>
  scanNetwork(db(), config().networks.find((network) => network.id === "devnet")!, devnet.client);
const view = async (id: string) => (await callRoute(GET, "/x", { params: { id } })).json;

describe("POST /api/public/payments/{id}/devnet-pay", () => {
  it("pays the remaining USDC from the test wallet's account; the watcher records it", async () => {
    const { payment } = await invoice();
    const response = await pay(payment.id);
    expect(response.status).toBe(200);
    expect(response.json).toEqual({
      object: "devnet_payment",
      paymentId: payment.id,
      network: "devnet",
      token: "USDC",
      amount: "30.000000",
      depositAddress: payment.depositAddress,
      txHash: expect.stringMatching(/^0x[0-9a-f]{64}$/),
    });
    await watch();
    expect(await view(payment.id)).toMatchObject({
      status: "CONFIRMED",
      amountPaid: "30.000000",
      remaining: "0.000000",
      payments: [{ txHash: response.json.txHash, amount: "30.000000" }],
    });
    // A transfer from the test wallet's address, not a mint: the payer is known.
    const stored = await db().payment.findFirstOrThrow({ where: { invoiceId: payment.id } });
    expect(stored.fromAddress).toBe(devnetTestWallet.address);
    const again = await pay(payment.id);
    expect(again.status).toBe(409);
    expect(again.json.error.code).toBe("nothing_to_pay");
  });

  it("pays an ETH invoice by a native transfer", async () => {
    const { payment } = await invoice("ETH");
    const response = await pay(payment.id);
    expect(response.json).toMatchObject({ token: "ETH", amount: "0.010000000000000000" });
    const transaction = await devnet.client.getTransaction({ hash: response.json.txHash as Hex });
    expect(getAddress(transaction.to as Hex)).toBe(getAddress(payment.depositAddress));
    expect(transaction.value).toBe(10n ** 16n);
    await watch();
    const stored = await db().payment.findFirstOrThrow({ where: { invoiceId: payment.id } });
    expect(stored).toMatchObject({
      logIndex: -1,
      txHash: response.json.txHash,
      fromAddress: devnetTestWallet.address,
    });
    expect((await view(payment.id)).status).toBe("CONFIRMED");
  });

  it("sends a given amount, and the overpayment is reported to buyer and merchant", async () => {
    const { payment, sessionId, auth } = await invoice();
    expect((await pay(payment.id, { amount: "35.5" })).json.amount).toBe("35.500000");
    await watch();
    expect(await view(payment.id)).toMatchObject({ status: "CONFIRMED", overpaid: "5.500000" });
    const retrieved = await callRoute(retrieveSession, `/api/checkout-sessions/${sessionId}`, {
      headers: auth,
      params: { id: sessionId },
    });
    expect(retrieved.json.payment).toMatchObject({ amountPaid: "35.500000", overpaid: "5.500000" });
  });

  it("mints the test wallet what it lacks first, so the payment is still its transfer", async () => {
    const { payment } = await invoice();
    const held = await devnet.usdcBalance(devnetTestWallet.address);
    const response = await pay(payment.id, { amount: formatUnits(held + 5_000_000n, 6) });
    expect(response.status).toBe(200);
    // What it lacked, and a reserve of a million so payments made at once do not race for it.
    expect(await devnet.usdcBalance(devnetTestWallet.address)).toBe(1_000_000_000_000n);
    expect(await devnet.usdcBalance(payment.depositAddress)).toBe(held + 5_000_000n);
  });

  it.each(["USDC", "ETH"])(
    "an invoice it paid in %s is refunded to the test wallet on chain (destination payer)",
    async (token) => {
      const { payment, auth } = await invoice(token);
      await pay(payment.id);
      await devnet.mine(1);
      await watch();
      const refunded = await callRoute(createRefund, "/api/private/refunds", {
        headers: { ...auth, "idempotency-key": `devnet-pay-refund-${token}-${Date.now()}` },
        body: { invoiceId: payment.id, amount: token === "USDC" ? "12.5" : "0.004", destination: "payer" },
      });
      expect(refunded.status).toBe(200);
      expect(refunded.json.data.toAddress).toBe(devnetTestWallet.address);
      const before =
        token === "USDC"
          ? await devnet.usdcBalance(devnetTestWallet.address)
          : await devnet.client.getBalance({ address: devnetTestWallet.address });
      const keys = sweeperKeysFromMnemonic(hardhatMnemonic);
      const network = config().networks[0];
      await advanceRefunds(db(), network, devnet.client, { keys });
      await devnet.mine(2);
      await advanceRefunds(db(), network, devnet.client, { keys });
      const row = await db().refund.findUniqueOrThrow({ where: { id: refunded.json.data.id } });
      expect(row.status).toBe("SUCCEEDED");
      const after =
        token === "USDC"
          ? await devnet.usdcBalance(devnetTestWallet.address)
          : await devnet.client.getBalance({ address: devnetTestWallet.address });
      expect(after - before).toBe(token === "USDC" ? 12_500_000n : 4n * 10n ** 15n);
    },
  );

  it.each<[string, Record<string, unknown>, string]>([
    ["a number", { amount: 5 }, "parameter_invalid"],
    ["a negative amount", { amount: "-1" }, "parameter_invalid"],
    ["zero", { amount: "0" }, "parameter_invalid"],
    ["more decimals than the token has", { amount: "1.1234567" }, "parameter_invalid"],
    ["an unknown field", { to: "0x0" }, "parameter_unknown"],
  ])("rejects %s with a 400 and sends nothing", async (_case, body, code) => {
    const { payment } = await invoice();
    const head = await devnet.client.getBlockNumber();
    const response = await pay(payment.id, body);
    expect(response.status).toBe(400);
    expect(response.json.error).toMatchObject({ code });
    expect(await devnet.client.getBlockNumber()).toBe(head);
  });

  it("answers 404 for an invoice on a network that is not the devnet, and for an unknown id", async () => {
    const { payment } = await invoice("USDC", "base");
    const head = await devnet.client.getBlockNumber();
    expect((await pay(payment.id)).status).toBe(404);
    expect((await pay("inv_000000000000000000000000")).status).toBe(404);
    expect((await pay("nope")).status).toBe(404);
    expect(await devnet.client.getBlockNumber()).toBe(head);
  });
});
