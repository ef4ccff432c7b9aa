// x402 with a facilitator over HTTP (SERVICE_X402_FACILITATOR_URL) that is not taken at its word:
// one that answers success without settling, names another transaction than the transfer, says
// any payment is valid, refuses with codes of its own; and payers who spend their authorization's
// nonce elsewhere or lack the funds. Nothing is answered paid that the chain does not show paid
// to the quoted address, and no gas is charged to an organization that our wallet did not pay.
import { randomBytes } from "node:crypto";
import { decodePaymentRequiredHeader } from "@x402/core/http";
import type { PaymentPayload, PaymentRequirements, SettleResponse, VerifyResponse } from "@x402/core/types";
import { authorizationTypes } from "@x402/evm";
import { createWalletClient, type Hex, http, parseAbi, parseUnits } from "viem";
import { english, generateMnemonic } from "viem/accounts";
import { hardhat } from "viem/chains";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { testUsdcEip3009 } from "@/lib/chains/devnet";
import type { NetworkConfig } from "@/lib/chains/networks";
import { db } from "@/lib/db/client";
import { sweeperKeysFromMnemonic } from "@/lib/sweeps/sweeper-keys";
import { resolveStuckX402Settlements } from "@/lib/x402/resolve-stuck-x402-settlements";
import { hardhatMnemonic, startTestDevnet, type TestDevnet } from "@/scripts/test-support/test-devnet";
import { sendX402Payment, serveX402App, type X402App, x402Agent } from "@/scripts/test-support/x402-app";
import {
  aheadOfSettlement,
  externalFacilitator,
  minesAfterEach,
  serveJson,
  settleAgain,
  settlementAwaitingMining,
  settleOverHttp,
  signedPayment,
  signingRoleFacilitator,
} from "@/scripts/test-support/x402-facilitator-stub";

settleOverHttp();

let devnet: TestDevnet;
let network: NetworkConfig;
let app: X402App;
let facilitator: Awaited<ReturnType<typeof serveJson>>;
/**
 * How the stand-in facilitator answers. verify: `honest` (the signing role's facilitator),
 * `permissive` (any payment is valid), `injected` (invalid, with a code of its own). settle:
 * `ours` (the signing role's, recording on our rows, our wallet), `external` (x402's own with
 * another key and wallet), `misnamed` (external, naming `misnamed` as its transaction), `lying`
 * (success, a made-up transaction, nothing sent), `refused` (insufficient_funds, nothing sent),
 * `injected` (refused with a code of its own).
 */
let mode: {
  verify: "honest" | "permissive" | "injected";
  settle: "ours" | "external" | "misnamed" | "lying" | "refused" | "injected";
} = { verify: "honest", settle: "ours" };
let misnamed: Hex | undefined;
let verifyRequests = 0;
/** The payment and requirements the facilitator was last asked to settle. */
let settled: { payload: PaymentPayload; requirements: PaymentRequirements } | undefined;
const injectedCode = "visit_evil_example_for_your_refund";
const externalMnemonic = generateMnemonic(english);

const walletOf = (mnemonic: string) =>
  sweeperKeysFromMnemonic(mnemonic).facilitatorWallet(devnet.network.chainId);

beforeAll(async () => {
  devnet = await startTestDevnet({ confirmations: 1 });
  // A few blocks a query: a settlement's events soon fall out of the latest ones.
  network = { ...devnet.network, maxBlockRange: 4 };
  process.env.SERVICE_NETWORKS = JSON.stringify([network]);
  await devnet.sendEth(walletOf(hardhatMnemonic).address, "100");
  await devnet.sendEth(walletOf(externalMnemonic).address, "100");
  const ours = signingRoleFacilitator(network);
  const external = externalFacilitator(network, externalMnemonic);
  const verify = async (
    payload: PaymentPayload,
    requirements: PaymentRequirements,
  ): Promise<VerifyResponse> => {
    verifyRequests++;
    if (mode.verify === "permissive") return { isValid: true };
    if (mode.verify === "injected") return { isValid: false, invalidReason: injectedCode };
    return ours.verify(payload, requirements);
  };
  const settle = async (
    payload: PaymentPayload,
    requirements: PaymentRequirements,
  ): Promise<SettleResponse> => {
    settled = { payload, requirements };
    const { network: caip2 } = requirements;
    const refusal = (errorReason: string) => ({
      success: false,
      errorReason,
      transaction: "",
      network: caip2,
    });
    if (mode.settle === "lying")
      return { success: true, transaction: `0x${randomBytes(32).toString("hex")}`, network: caip2 };
    if (mode.settle === "refused") return refusal("insufficient_funds");
    if (mode.settle === "injected") return refusal(injectedCode);
    if (mode.settle === "ours") return ours.settle(payload, requirements);
    const answer = await external.settle(payload, requirements);
    return mode.settle === "misnamed" ? { ...answer, transaction: misnamed as Hex } : answer;
  };
  type Request = { paymentPayload: PaymentPayload; paymentRequirements: PaymentRequirements };
  facilitator = await serveJson<Request>((path, { paymentPayload, paymentRequirements }) =>
    (path === "/verify" ? verify : settle)(paymentPayload, paymentRequirements),
  );
  process.env.SERVICE_X402_FACILITATOR_URL = facilitator.url;
  app = await serveX402App();
}, 120_000);
afterEach(() => {
  mode = { verify: "honest", settle: "ours" };
});
minesAfterEach(() => devnet);
afterAll(async () => {
  await app?.close();
  await facilitator?.close();
  await devnet?.stop();
});

const agent = (usdc = "10") => x402Agent(devnet, usdc);
const settlementOf = (organizationId: string) =>
  db().x402Settlement.findFirstOrThrow({ where: { organizationId }, include: { invoice: true } });

describe("a facilitator's success is checked on chain", () => {
  it("success without a transfer: 503 settlement_pending, nothing paid; past its window, 402 settlement_expired", async () => {
    mode = { verify: "honest", settle: "lying" };
    const { organization, url } = await app.paylink("2.00");
    const { account, client } = await agent();
    const send = await signedPayment(url, client);
    const response = await send();
    expect(response.status).toBe(503);
    expect((await response.json()).error.code).toBe("settlement_pending");
    const row = await settlementOf(organization.id);
    expect(row).toMatchObject({ status: "SETTLING", invoice: { status: "AWAITING_PAYMENT" } });

    // The chain past the authorization's window, still unused: it never paid.
    await devnet.mine(1);
    await db().$executeRaw`
      UPDATE "X402Settlement" SET "validBefore" = now() - interval '10 minutes' WHERE "id" = ${row.id}`;
    const expired = await send();
    expect(expired.status).toBe(402);
    expect((await expired.json()).error.code).toBe("settlement_expired");
    expect(await settlementOf(organization.id)).toMatchObject({
      status: "FAILED",
      invoice: { status: "OVERDUE" },
    });
    expect(await devnet.usdcBalance(account.address)).toBe(parseUnits("10", 6));
    expect(await devnet.usdcBalance(row.invoice.depositAddress)).toBe(0n);
  });

  it.each([
    {
      name: "an external facilitator's transfer: its wallet's gas is not ours",
      settle: "external",
      gas: false,
    },
    {
      name: "a transfer named as another transaction of our wallet: that one is not this payment's gas",
      settle: "misnamed",
      gas: false,
    },
    {
      name: "a transfer from the wallet the signing role reports as ours (FacilitatorWallet): its gas counts",
      settle: "external",
      gas: true,
    },
  ] as const)("settles with the chain's transaction, $name", async ({ settle, gas }) => {
    mode = { verify: "honest", settle };
    // A transaction of our wallet, not a settlement, for the facilitator to name.
    const ourWallet = createWalletClient({
      account: walletOf(hardhatMnemonic),
      chain: hardhat,
      transport: http(devnet.rpcUrl),
    });
    misnamed = await ourWallet.sendTransaction({ to: devnet.wallet.account.address, value: 1n });
    await devnet.client.waitForTransactionReceipt({ hash: misnamed });
    const external = walletOf(externalMnemonic).address;
    if (gas)
      await db().facilitatorWallet.create({
        data: {
          network: network.id,
          address: external,
          balance: "1",
          low: false,
          threshold: "0",
          checkedAt: new Date(),
        },
      });
    try {
      const { organization, url } = await app.paylink("2.00");
      const { account, pay } = await agent();
      const response = await pay(url);
      expect(response.status).toBe(200);
      const { transaction } = await response.json();
      const receipt = await devnet.client.getTransactionReceipt({ hash: transaction });
      expect(receipt.status).toBe("success");
      expect(receipt.from.toLowerCase()).toBe(external.toLowerCase());
      const row = await settlementOf(organization.id);
      expect(row).toMatchObject({ status: "SETTLED", transaction });
      expect(row.gasUsd).not.toBeNull();
      expect(Number(row.gasUsd) > 0).toBe(gas);
      expect(await devnet.usdcBalance(account.address)).toBe(parseUnits("8", 6));
      expect(await devnet.usdcBalance(row.invoice.depositAddress)).toBe(parseUnits("2", 6));
    } finally {
      await db().facilitatorWallet.deleteMany({ where: { network: network.id } });
    }
  });

  it("a payer who spends the nonce first, with another authorization to itself: 402 authorization_used_elsewhere, never 200; our reverted transfer's gas counts", async () => {
    const { organization, account, payer, mined } = await settlementAwaitingMining(devnet, app);
    const { nonce } = await settlementOf(organization.id);
    const own = {
      from: account.address,
      to: account.address,
      value: 0n,
      validAfter: 0n,
      validBefore: 2n ** 40n,
    };
    const signature = await account.signTypedData({
      domain: { ...testUsdcEip3009, chainId: hardhat.id, verifyingContract: devnet.usdc },
      types: authorizationTypes,
      primaryType: "TransferWithAuthorization",
      message: { ...own, nonce: nonce as Hex },
    });
    await payer.writeContract({
      address: devnet.usdc,
      abi: parseAbi([
        "function transferWithAuthorization(address from, address to, uint256 value, uint256 validAfter, uint256 validBefore, bytes32 nonce, bytes signature)",
      ]),
      functionName: "transferWithAuthorization",
      args: [own.from, own.to, own.value, own.validAfter, own.validBefore, nonce as Hex, signature],
      ...aheadOfSettlement,
    });
    const response = await mined();
    expect(response.status).toBe(402);
    expect((await response.json()).error.code).toBe("authorization_used_elsewhere");
    const row = await settlementOf(organization.id);
    expect(row).toMatchObject({
      status: "FAILED",
      errorReason: "authorization_used_elsewhere",
      invoice: { status: "OVERDUE" },
    });
    expect((await devnet.client.getTransactionReceipt({ hash: row.transaction as Hex })).status).toBe(
      "reverted",
    );
    expect(Number(row.gasUsd)).toBeGreaterThan(0);
    expect(await devnet.usdcBalance(row.invoice.depositAddress)).toBe(0n);
  });

  it("a settlement decided after its transfer left the latest maxBlockRange blocks: found in the blocks of its window, SETTLED", async () => {
    mode = { verify: "honest", settle: "external" };
    const { organization, url } = await app.paylink("2.00");
    const { pay } = await agent();
    const paid = await (await pay(url)).json();
    await devnet.mine(20);
    // As a settler that died leaves it: SETTLING, nothing recorded, its lease long lapsed.
    const { id } = await settlementOf(organization.id);
    await db().$executeRaw`
      UPDATE "X402Settlement" SET "status" = 'SETTLING', "transaction" = NULL, "updatedAt" = now() - interval '10 minutes'
      WHERE "id" = ${id}`;
    await resolveStuckX402Settlements(db());
    expect(await settlementOf(organization.id)).toMatchObject({
      status: "SETTLED",
      transaction: paid.transaction,
    });
  });
});

describe("our own checks, whatever the facilitator says", () => {
  it.each([
    {
      name: "pays another address",
      change: (option: PaymentRequirements) => ({ ...option, payTo: devnet.wallet.account.address }),
    },
    { name: "pays less than quoted", change: (option: PaymentRequirements) => ({ ...option, amount: "1" }) },
  ])(
    "an authorization that $name: 402 requirements_mismatch before any facilitator is asked; nothing made",
    async ({ change }) => {
      mode = { verify: "permissive", settle: "ours" };
      const { organization, url } = await app.paylink("2.00");
      const { account, client } = await agent();
      const required = decodePaymentRequiredHeader(
        (await fetch(url)).headers.get("PAYMENT-REQUIRED") as string,
      );
      const [quoted] = required.accepts;
      const payment = await client.createPaymentPayload({ ...required, accepts: [change(quoted)] });
      const asked = verifyRequests;
      const response = await sendX402Payment(url, { ...payment, accepted: quoted });
      expect(response.status).toBe(402);
      expect((await response.json()).error.code).toBe("requirements_mismatch");
      expect(verifyRequests).toBe(asked);
      expect(await db().invoice.count({ where: { organizationId: organization.id } })).toBe(0);
      expect(await devnet.usdcBalance(account.address)).toBe(parseUnits("10", 6));
    },
  );

  it("a refusal over HTTP while the payer holds less than its value: 402 insufficient_funds at once, the session free for another payer; the same payer waits out its authorization (payer_busy)", async () => {
    mode = { verify: "permissive", settle: "refused" };
    const created = await app.session("2.00");
    const short = await agent("1");
    const response = await (await signedPayment(created.url, short.client))();
    expect(response.status).toBe(402);
    expect((await response.json()).error.code).toBe("insufficient_funds");
    expect(await settlementOf(created.organization.id)).toMatchObject({
      status: "FAILED",
      errorReason: "insufficient_funds",
      invoice: { status: "AWAITING_PAYMENT" },
    });

    // Topped up, the payer's first authorization could land beside a new one: the new one waits.
    mode = { verify: "honest", settle: "ours" };
    await devnet.mintUsdc(short.account.address, "10");
    const again = await (await signedPayment(created.url, short.client))();
    expect(again.status).toBe(402);
    expect((await again.json()).error.code).toBe("payer_busy");
    // Another payer is not held up.
    expect((await (await agent()).pay(created.url)).status).toBe(200);
    expect(await devnet.usdcBalance(short.account.address)).toBe(parseUnits("11", 6));
  });

  it("a facilitator's own code is not passed on: verify answers 402 invalid_payment", async () => {
    mode = { verify: "injected", settle: "ours" };
    const { url } = await app.paylink("2.00");
    const { pay } = await agent();
    const response = await pay(url);
    expect(response.status).toBe(402);
    const { error } = await response.json();
    expect(error).toMatchObject({
      code: "invalid_payment",
      message: "The payment is not valid (invalid_payment).",
    });
    expect(response.headers.get("PAYMENT-REQUIRED")).not.toContain(injectedCode);
  });

  it("a facilitator's own code is not passed on: a refusal from one that records its broadcasts is FAILED settlement_failed", async () => {
    mode = { verify: "honest", settle: "injected" };
    const { organization, url } = await app.paylink("2.00");
    const { client } = await agent();
    expect((await (await signedPayment(url, client))()).status).toBe(503);
    const row = await settlementOf(organization.id);
    const decided = await settleAgain(row, settled as NonNullable<typeof settled>, true);
    expect(decided).toMatchObject({ status: "FAILED", errorReason: "settlement_failed" });
  });
});
