import { Challenge, Credential, Receipt } from "mppx";
import { createPublicClient, createWalletClient, erc20Abi, http, parseAbi, parseEventLogs } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { hardhat } from "viem/chains";
import { devnetFunder } from "../lib/chains/devnet-account";
import { mppBuyer } from "../scripts/test-support/mpp-buyer";
import { x402Buyer } from "../scripts/test-support/x402-buyer";
import { agentPaylink, appEnv, expect, test } from "./fixtures";

// An MPP agent and an x402 agent paying the same paylink URL (docs/agents.md, "The same URL with
// an MPP client"), black box: the app as `npm start` runs it, its devnet, mppx's and x402's
// official clients. Only HTTP, the chain and a webhook receiver are looked at.

const rpcUrl = () => `http://127.0.0.1:${appEnv().SERVICE_DEVNET_PORT}`;

test("an MPP agent pays a paylink's x402Url: 200 with Payment-Receipt, the price moved once, one payment.confirmed; its replay is 402 and moves nothing; an x402 agent pays the same URL", async ({
  request,
  merchant,
}) => {
  const chain = createPublicClient({ chain: hardhat, transport: http(rpcUrl()) });
  const { receiver, paylink } = await agentPaylink(request, merchant);
  try {
    const { x402Url } = paylink;

    // Unpaid: both protocols' offers, and mppx parses its own.
    const probe = await fetch(x402Url);
    expect(probe.status).toBe(402);
    expect(probe.headers.get("PAYMENT-REQUIRED")).toBeTruthy();
    const [offer] = Challenge.fromResponseList(probe);
    expect(offer).toMatchObject({ method: "evm", intent: "charge", request: { amount: "1500000" } });
    const usdc = (offer.request as { currency: `0x${string}` }).currency;
    const balanceOf = (address: `0x${string}`) =>
      chain.readContract({ address: usdc, abi: erc20Abi, functionName: "balanceOf", args: [address] });

    // An agent of its own with 5 test USDC, minted (anyone may mint it) rather than sent by the
    // start's test buyer: x402.spec.ts pays from that one and counts its balance meanwhile. The node
    // signs for its own account, so it numbers the transaction among other specs' at once.
    const key = generatePrivateKey();
    const account = privateKeyToAccount(key);
    const funder = createWalletClient({
      account: devnetFunder.address,
      chain: hardhat,
      transport: http(rpcUrl()),
    });
    const funding = await funder.writeContract({
      address: usdc,
      abi: parseAbi(["function mint(address to, uint256 amount)"]),
      functionName: "mint",
      args: [account.address, 5_000_000n],
    });
    await chain.waitForTransactionReceipt({ hash: funding });

    const buyer = mppBuyer(account);
    const paid = await buyer.pay(x402Url);
    expect(paid.status).toBe(200);
    const receipt = Receipt.deserialize(paid.headers.get("Payment-Receipt") as string);
    expect(receipt).toMatchObject({ method: "evm", status: "success" });
    const body = await paid.json();
    expect(body).toMatchObject({
      object: "x402_payment",
      transaction: receipt.reference,
      payer: account.address,
      checkoutSession: { status: "COMPLETED", amount: "1.50", currency: "USD" },
    });
    // On chain: exactly the price, once, to the challenge's recipient.
    const mined = await chain.getTransactionReceipt({ hash: receipt.reference as `0x${string}` });
    const recipient = (
      Credential.deserialize(buyer.credentials[0]).challenge.request as { recipient: string }
    ).recipient;
    expect(
      parseEventLogs({ abi: erc20Abi, logs: mined.logs, eventName: "Transfer" }).map(({ args }) => args),
    ).toEqual([{ from: account.address, to: recipient, value: 1_500_000n }]);
    expect(await balanceOf(account.address)).toBe(3_500_000n);

    const confirmed = () =>
      receiver.received.filter((delivery) => JSON.parse(delivery.rawBody).type === "payment.confirmed");
    await expect.poll(() => confirmed().length, { timeout: 60_000 }).toBe(1);
    expect(JSON.parse(confirmed()[0].rawBody)).toMatchObject({
      checkoutSessionId: body.checkoutSession.id,
      amountUsd: "1.50",
      tokenAmount: "1.500000",
    });

    // The same credential again: 402 with a fresh challenge, verification-failed, nothing moved.
    const replay = await fetch(x402Url, { headers: { Authorization: buyer.credentials[0] } });
    expect(replay.status).toBe(402);
    expect(replay.headers.get("content-type")).toBe("application/problem+json");
    expect(Challenge.fromResponseList(replay.clone())[0].id).not.toBe(offer.id);
    expect(await replay.json()).toMatchObject({
      type: "https://paymentauth.org/problems/verification-failed",
      error: { code: "credential_used" },
    });
    expect(await balanceOf(account.address)).toBe(3_500_000n);

    // x402's official client pays the same URL from the same wallet.
    const x402Paid = await x402Buyer(key, usdc).pay(x402Url);
    expect(x402Paid.status).toBe(200);
    expect(await balanceOf(account.address)).toBe(2_000_000n);
    await expect.poll(() => confirmed().length, { timeout: 60_000 }).toBe(2);
  } finally {
    await receiver.close();
  }
});
