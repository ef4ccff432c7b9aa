import type { FacilitatorClient } from "@x402/core/server";
import type { PaymentPayload, PaymentRequirements } from "@x402/core/types";
import { type Address, type Hex, parseUnits } from "viem";
import { generatePrivateKey, type PrivateKeyAccount, privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { testUsdcEip3009 } from "@/lib/chains/devnet";
import { sweeperKeysFromMnemonic } from "@/lib/sweeps/sweeper-keys";
import { startTestDevnet, type TestDevnet } from "@/scripts/test-support/test-devnet";
import { devnetExactRequirements, signDevnetPayment } from "@/scripts/test-support/x402-buyer";
import { createBuiltInFacilitator } from "./create-built-in-facilitator";
import { devnetFacilitatorWalletCoin } from "./fund-devnet-facilitator-wallet";
import { x402Networks } from "./x402-networks";

// The built-in facilitator on a real devnet, paid by x402's own EVM client (an independent
// implementation of the payer's side): it verifies and settles EIP-3009 authorizations with the
// facilitator wallet's gas, never the payer's, and refuses what it was not set up for.

const mnemonic =
  "abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon about";
let devnet: TestDevnet;
let facilitator: FacilitatorClient;
let facilitatorWallet: Address;
const merchant = privateKeyToAccount(generatePrivateKey()).address;

beforeAll(async () => {
  devnet = await startTestDevnet({ confirmations: 1, priceFeeds: false, mnemonic });
  facilitator = createBuiltInFacilitator({
    mnemonic,
    networks: [devnet.network],
    ownsPayee: async () => true,
    recordsBroadcast: async () => true,
    recordedBroadcasts: async () => [],
  });
  facilitatorWallet = sweeperKeysFromMnemonic(mnemonic).facilitatorWallet(devnet.network.chainId).address;
}, 120_000);
afterAll(async () => devnet?.stop());

function requirements(changes: Partial<PaymentRequirements> = {}): PaymentRequirements {
  return { ...devnetExactRequirements(devnet.usdc, "1.25", merchant), ...changes };
}

/** What x402's client signs for `accepted`, as an agent paying the resource would. */
function pay(payer: PrivateKeyAccount, accepted = requirements()): Promise<PaymentPayload> {
  return signDevnetPayment(payer, accepted, {
    url: "http://merchant.test/report",
    description: "a report",
    mimeType: "application/json",
  });
}

async function fundedPayer(amount = "5") {
  const payer = privateKeyToAccount(generatePrivateKey());
  await devnet.mintUsdc(payer.address, amount);
  return payer;
}

describe("the built-in x402 facilitator", () => {
  it("lists the devnet's exact scheme and its facilitator wallet", async () => {
    const supported = await facilitator.getSupported();
    expect(supported.kinds).toEqual([{ x402Version: 2, scheme: "exact", network: "eip155:31337" }]);
    expect(supported.signers).toEqual({ "eip155:*": [facilitatorWallet] });
  });

  it("verifies and settles a payment, its gas paid by the facilitator wallet", async () => {
    const payer = await fundedPayer();
    const payment = await pay(payer);
    const merchantBefore = await devnet.usdcBalance(merchant);
    expect(await facilitator.verify(payment, requirements())).toEqual({
      isValid: true,
      invalidReason: undefined,
      payer: payer.address,
    });
    const settled = await facilitator.settle(payment, requirements());
    expect(settled).toMatchObject({ success: true, network: "eip155:31337", payer: payer.address });
    const receipt = await devnet.client.getTransactionReceipt({ hash: settled.transaction as Hex });
    expect(receipt).toMatchObject({ status: "success", from: facilitatorWallet.toLowerCase() });
    expect(await devnet.usdcBalance(payer.address)).toBe(parseUnits("3.75", 6));
    expect((await devnet.usdcBalance(merchant)) - merchantBefore).toBe(parseUnits("1.25", 6));
    expect(await devnet.client.getBalance({ address: payer.address })).toBe(0n);
    // Topped up on the devnet when first needed, and the gas came out of it.
    expect(await devnet.client.getBalance({ address: facilitatorWallet })).toBeLessThan(
      parseUnits(devnetFacilitatorWalletCoin, 18),
    );

    // The same authorization again: refused, and nothing moves.
    expect(await facilitator.settle(payment, requirements())).toMatchObject({
      success: false,
      errorReason: "invalid_exact_evm_nonce_already_used",
    });
    // Verification simulates the transfer, then names the cause through Multicall3 (which the
    // devnet has at its usual address, lib/chains/devnet.ts).
    expect(await facilitator.verify(payment, requirements())).toMatchObject({
      isValid: false,
      invalidReason: "invalid_exact_evm_nonce_already_used",
      invalidMessage: expect.stringMatching(/authorization is used or canceled/),
    });
    expect(await devnet.usdcBalance(payer.address)).toBe(parseUnits("3.75", 6));
  });

  it("refuses more than the payer holds, settling nothing", async () => {
    const payer = await fundedPayer();
    const accepted = requirements({ amount: parseUnits("50", 6).toString() });
    const payment = await pay(payer, accepted);
    expect(await facilitator.verify(payment, accepted)).toMatchObject({
      isValid: false,
      invalidReason: "invalid_exact_evm_insufficient_balance",
      invalidMessage: expect.stringMatching(/transfer amount exceeds balance/),
    });
    expect(await facilitator.settle(payment, accepted)).toMatchObject({
      success: false,
      errorReason: "invalid_exact_evm_insufficient_balance",
    });
    expect(await devnet.usdcBalance(payer.address)).toBe(parseUnits("5", 6));
  });

  it("settles five authorizations at once, each with its own nonce", async () => {
    const payers = await Promise.all([1, 2, 3, 4, 5].map(() => privateKeyToAccount(generatePrivateKey())));
    // Minted one after the other: the funder signs locally.
    for (const payer of payers) await devnet.mintUsdc(payer.address, "5");
    const payments = await Promise.all(payers.map((payer) => pay(payer)));
    const merchantBefore = await devnet.usdcBalance(merchant);
    const results = await Promise.all(payments.map((payment) => facilitator.settle(payment, requirements())));
    expect(results.map((result) => result.success)).toEqual([true, true, true, true, true]);
    const transactions = await Promise.all(
      results.map((result) => devnet.client.getTransaction({ hash: result.transaction as Hex })),
    );
    expect(new Set(transactions.map((transaction) => transaction.nonce)).size).toBe(5);
    expect(transactions.every((transaction) => transaction.from === facilitatorWallet.toLowerCase())).toBe(
      true,
    );
    expect((await devnet.usdcBalance(merchant)) - merchantBefore).toBe(parseUnits("6.25", 6));
    for (const payer of payers) expect(await devnet.usdcBalance(payer.address)).toBe(parseUnits("3.75", 6));
  });

  it("sends later nonces without awaiting a stuck one, replaces a stuck transfer at its nonce, and frees the nonce of one whose window closed", async () => {
    // Mined at once, as the devnet does (and the facilitator wallet funded, in its own transaction).
    expect(await facilitator.settle(await pay(await fundedPayer()), requirements())).toMatchObject({
      success: true,
    });
    const [lasting, closing] = [await fundedPayer(), await fundedPayer()];
    // The window a transfer stuck for two replacement rounds (5 s each on the devnet) outlives,
    // and one it does not (x402's facilitator wants 6 s left).
    const short = requirements({ maxTimeoutSeconds: 9 });
    const payments = [await pay(lasting), await pay(closing, short)];
    const merchantBefore = await devnet.usdcBalance(merchant);
    const ours = async () =>
      (await devnet.pendingTransactions()).filter(
        (transaction) => transaction.from === facilitatorWallet.toLowerCase(),
      );
    await devnet.rpc("evm_setAutomine", [false]);
    try {
      const settling = [
        facilitator.settle(payments[0], requirements()),
        facilitator.settle(payments[1], short),
      ];
      // Both sent, the second at the next nonce, while the first waits unmined.
      await expect.poll(async () => (await ours()).length, { timeout: 10_000 }).toBe(2);
      const stuck = await Promise.all(
        (await ours()).map((sent) => devnet.client.getTransaction({ hash: sent.hash })),
      );
      expect(stuck.map((sent) => sent.nonce)).toEqual([stuck[0].nonce, stuck[0].nonce + 1]);
      // First the same transfers at higher fees; then, its window closed, a transfer of nothing
      // to itself in the second's place. The node keeps one transaction a nonce.
      await expect
        .poll(async () => (await ours()).find((sent) => sent.to === facilitatorWallet.toLowerCase()), {
          timeout: 20_000,
          interval: 250,
        })
        .toBeDefined();
      const replaced = await Promise.all(
        (await ours()).map((sent) => devnet.client.getTransaction({ hash: sent.hash })),
      );
      expect(replaced.map((sent) => [sent.nonce, sent.to])).toEqual([
        [stuck[0].nonce, devnet.usdc.toLowerCase()],
        [stuck[1].nonce, facilitatorWallet.toLowerCase()],
      ]);
      expect(replaced[0].hash).not.toBe(stuck[0].hash);
      expect(replaced[0].input).toBe(stuck[0].input);
      expect(replaced[0].maxFeePerGas).toBeGreaterThan(stuck[0].maxFeePerGas as bigint);
      await devnet.rpc("evm_setAutomine", [true]);
      await devnet.mine();
      // Replaced: the settler decides from the chain (lib/x402/settle-x402-authorization.ts).
      const results = await Promise.all(settling);
      expect(results.map((result) => result.errorReason)).toEqual([
        "settlement_pending",
        "settlement_pending",
      ]);
      for (const sent of stuck)
        await expect(devnet.client.getTransactionReceipt({ hash: sent.hash })).rejects.toThrow();
      expect(await devnet.client.getTransactionReceipt({ hash: replaced[0].hash })).toMatchObject({
        status: "success",
      });
      expect((await devnet.usdcBalance(merchant)) - merchantBefore).toBe(parseUnits("1.25", 6));
      expect(await devnet.usdcBalance(lasting.address)).toBe(parseUnits("3.75", 6));
      expect(await devnet.usdcBalance(closing.address)).toBe(parseUnits("5", 6));
    } finally {
      await devnet.rpc("evm_setAutomine", [true]);
    }
    // The freed nonce holds nothing back: the next settlement goes out and lands at once.
    const next = await facilitator.settle(await pay(await fundedPayer()), requirements());
    expect(next).toMatchObject({ success: true });
  }, 60_000);

  const refusals: [
    string,
    (payer: PrivateKeyAccount) => Promise<[PaymentPayload, PaymentRequirements]>,
    string,
  ][] = [
    [
      "a signature by someone else",
      async (payer) => {
        const payment = await pay(payer);
        const forged = await pay(privateKeyToAccount(generatePrivateKey()));
        return [
          { ...payment, payload: { ...payment.payload, signature: forged.payload.signature } },
          requirements(),
        ];
      },
      "invalid_exact_evm_signature",
    ],
    [
      "a window that has closed",
      async (payer) => {
        const accepted = requirements({ maxTimeoutSeconds: 1 });
        return [await pay(payer, accepted), accepted];
      },
      "invalid_exact_evm_payload_authorization_valid_before",
    ],
    [
      "another amount than required",
      async (payer) => [await pay(payer), requirements({ amount: parseUnits("2", 6).toString() })],
      "invalid_exact_evm_payload_authorization_value_mismatch",
    ],
    [
      "another payee than required",
      async (payer) => [await pay(payer), requirements({ payTo: devnet.wallet.account.address })],
      "invalid_exact_evm_recipient_mismatch",
    ],
    [
      "a token that is not configured",
      async (payer) => {
        const accepted = requirements({ asset: `0x${"1".repeat(40)}` });
        return [await pay(payer), accepted];
      },
      "invalid_payment_requirements",
    ],
    [
      "a network that is not configured",
      async (payer) => [await pay(payer), requirements({ network: "eip155:8453" })],
      "invalid_payment_requirements",
    ],
    [
      "another scheme",
      async (payer) => [await pay(payer), requirements({ scheme: "upto" })],
      "unsupported_scheme",
    ],
  ];
  it.each(refusals)("refuses %s, settling nothing", async (_label, make, reason) => {
    const payer = await fundedPayer();
    const [payment, required] = await make(payer);
    expect(await facilitator.verify(payment, required)).toMatchObject({
      isValid: false,
      invalidReason: reason,
    });
    expect(await facilitator.settle(payment, required)).toMatchObject({
      success: false,
      errorReason: reason,
    });
    expect(await devnet.usdcBalance(payer.address)).toBe(parseUnits("5", 6));
  });

  it("is listed by x402Networks with the devnet token's domain", () => {
    expect(x402Networks([devnet.network])).toEqual([
      {
        networkId: "devnet",
        network: "eip155:31337",
        chainId: 31337,
        symbol: "USDC",
        asset: devnet.usdc,
        decimals: 6,
        eip712: testUsdcEip3009,
      },
    ]);
  });
});
