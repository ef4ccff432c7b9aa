import { decodePaymentResponseHeader, decodePaymentSignatureHeader } from "@x402/core/http";
import { createPublicClient, erc20Abi, type Hex, http, parseEventLogs } from "viem";
import { hardhat } from "viem/chains";
import { devnetBuyer, devnetBuyerKey } from "../lib/chains/devnet-account";
import { devnetCaip2, probeX402, x402Buyer } from "../scripts/test-support/x402-buyer";
import { agentPaylink, appEnv, expect, test } from "./fixtures";

// The agent's side of docs/agents.md ("Agents that pay"), black box: the app as `npm start` runs
// it (scripts/e2e-server.ts), its devnet, the test buyer whose key the start prints, and x402's
// official client. Only HTTP, the chain and a webhook receiver are looked at.

const rpcUrl = () => `http://127.0.0.1:${appEnv().SERVICE_DEVNET_PORT}`;
/** The entries of a Link header (RFC 8288), each `<target>; params`. */
const links = (header: string | undefined) => header?.split(/,\s*(?=<)/) ?? [];

test("an agent pays a paylink with x402: 402 with the devnet USDC, 200 once settled, the price moved once, one payment.confirmed; replays move nothing", async ({
  request,
  merchant,
}) => {
  const chain = createPublicClient({ chain: hardhat, transport: http(rpcUrl()) });
  const { headers, receiver, paylink } = await agentPaylink(request, merchant);
  try {
    expect(paylink.x402Url).toBe(`${appEnv().SERVICE_BASE_URL}/api/x402/paylinks/${paylink.id}`);

    // The buyer's pay address tells an agent where to pay by machine (lib/http/payment-link.ts).
    const payAddress = await request.get(paylink.url, { maxRedirects: 0 });
    expect(payAddress.status()).toBe(303);
    expect(links(payAddress.headers().link)).toContain(`<${paylink.x402Url}>; rel="payment"`);
    const hostedPage = await request.get(payAddress.headers().location as string);
    expect(hostedPage.status()).toBe(200);
    const sessionX402Url = `${appEnv().SERVICE_BASE_URL}/api/x402/checkout-sessions/${/ycs_\w+$/.exec(payAddress.headers().location as string)?.[0]}`;
    // Next.js adds its own preloads to the same header.
    expect(links(hostedPage.headers().link)).toContain(`<${sessionX402Url}>; rel="payment"`);
    expect(await hostedPage.text()).toMatch(
      new RegExp(`<head>.*<link rel="payment" href="${sessionX402Url}"/>.*</head>`, "s"),
    );

    // Asked without a payment: 402, and PAYMENT-REQUIRED names the devnet's test USDC, and the
    // local Solana chain's beside it (paid with @x402/svm: app/api/x402/x402-svm.int.test.ts).
    const probe = await probeX402(paylink.x402Url);
    expect(probe.response.status).toBe(402);
    const required = probe.paymentRequired;
    expect(required).toMatchObject({ x402Version: 2, resource: { url: paylink.x402Url } });
    expect(required?.accepts.map((accepted) => accepted.network)).toEqual([
      devnetCaip2,
      "solana:EtWTRABZaYq6iMfeYKouRu166VU2xqa1",
    ]);
    const [option] = required?.accepts ?? [];
    expect(option).toMatchObject({ scheme: "exact", network: devnetCaip2, amount: "1500000" });
    const usdc = option.asset as Hex;
    const tokenCall = { address: usdc, abi: erc20Abi } as const;
    expect(await chain.readContract({ ...tokenCall, functionName: "symbol" })).toBe("USDC");
    expect(option.extra).toMatchObject({
      name: await chain.readContract({ ...tokenCall, functionName: "name" }),
    });
    const balanceOf = (address: Hex) =>
      chain.readContract({ ...tokenCall, functionName: "balanceOf", args: [address] });

    // Paid with the official client from the test buyer's key.
    const buyer = x402Buyer(devnetBuyerKey, usdc);
    expect(buyer.address).toBe(devnetBuyer.address);
    const before = await balanceOf(buyer.address);
    const paid = await buyer.pay(paylink.x402Url);
    expect(paid.status).toBe(200);
    const settlement = decodePaymentResponseHeader(paid.headers.get("PAYMENT-RESPONSE") as string);
    expect(settlement).toMatchObject({ success: true, network: devnetCaip2, payer: buyer.address });
    const body = await paid.json();
    expect(body).toMatchObject({
      object: "x402_payment",
      transaction: settlement.transaction,
      payer: buyer.address,
      checkoutSession: { object: "checkout_session", status: "COMPLETED", amount: "1.50", currency: "USD" },
    });

    // On chain: exactly the price, once, from the buyer to the address the 402 named.
    const receipt = await chain.getTransactionReceipt({ hash: settlement.transaction as Hex });
    const transfers = parseEventLogs({ abi: erc20Abi, logs: receipt.logs, eventName: "Transfer" });
    expect(transfers.map(({ address, args }) => ({ address: address.toLowerCase(), ...args }))).toEqual([
      {
        address: usdc.toLowerCase(),
        from: buyer.address,
        to: expect.stringMatching(/^0x/),
        value: 1_500_000n,
      },
    ]);
    // To the address of the quote the client paid (its own 402, each quote an address of its own).
    const signed = decodePaymentSignatureHeader(buyer.signatures[0] as string);
    expect(transfers[0].args.to.toLowerCase()).toBe(signed.accepted.payTo.toLowerCase());
    expect(body.payment.depositAddress.toLowerCase()).toBe(signed.accepted.payTo.toLowerCase());
    expect(before - (await balanceOf(buyer.address))).toBe(1_500_000n);

    // The merchant hears of it like any payment: payment.confirmed, once the confirmations are in.
    const confirmed = () =>
      receiver.received.filter((delivery) => JSON.parse(delivery.rawBody).type === "payment.confirmed");
    await expect.poll(() => confirmed().length, { timeout: 60_000 }).toBe(1);
    expect(JSON.parse(confirmed()[0].rawBody)).toMatchObject({
      invoiceId: body.payment.id,
      checkoutSessionId: body.checkoutSession.id,
      amountUsd: "1.50",
      currency: "USD",
      token: "USDC",
      tokenAmount: "1.500000",
      status: "CONFIRMED",
    });

    // The same PAYMENT-SIGNATURE three times at once: each answers the first one's settlement, and
    // nothing more moves.
    expect(buyer.signatures).toHaveLength(1);
    const replays = await Promise.all(
      [1, 2, 3].map(() => fetch(paylink.x402Url, { headers: { "PAYMENT-SIGNATURE": buyer.signatures[0] } })),
    );
    for (const replay of replays) {
      expect(replay.status).toBe(200);
      expect(decodePaymentResponseHeader(replay.headers.get("PAYMENT-RESPONSE") as string)).toEqual(
        settlement,
      );
      expect((await replay.json()).checkoutSession.id).toBe(body.checkoutSession.id);
    }
    expect(before - (await balanceOf(buyer.address))).toBe(1_500_000n);
    // One invoice, paid once, in full.
    const transactions = (await (await request.get("/api/private/transactions", { headers })).json()).data;
    expect(transactions.total).toBe(1);
    expect(transactions.data[0]).toMatchObject({
      id: body.payment.id,
      status: "CONFIRMED",
      amountPaid: "1.500000",
    });
    expect(transactions.data[0].payments).toMatchObject([{ txHash: settlement.transaction }]);
    expect(confirmed()).toHaveLength(1);
  } finally {
    await receiver.close();
  }
});
