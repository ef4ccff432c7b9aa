// MPP (the "Payment" HTTP authentication scheme) beside x402 on the same x402 URLs, over real
// HTTP with mppx's own client (mppx/evm/client) and x402's (@x402/fetch), against a real Hardhat
// node, real PostgreSQL and this process's built-in facilitator (lib/mpp/, lib/x402/).
process.env.SERVICE_SWEEPER = "in-process";
process.env.SERVICE_RATE_LIMIT_X402_PER_CLIENT_PER_MINUTE = "1000";

import { decodePaymentRequiredHeader, encodePaymentSignatureHeader } from "@x402/core/http";
import type { PaymentPayload } from "@x402/core/types";
import Ajv2020 from "ajv/dist/2020";
import { Credential, Receipt } from "mppx";
import { erc20Abi, getAddress, type Hex, parseEventLogs, parseUnits } from "viem";
import { describe, expect, it } from "vitest";
import { config } from "@/lib/config";
import { db } from "@/lib/db/client";
import { mppChallenges } from "@/lib/mpp/mpp-challenges";
import { scanNetwork } from "@/lib/payments/scan-network";
import { mppBuyer, mppChallengesOf, signMppChallenge } from "@/scripts/test-support/mpp-buyer";
import { x402Agent, x402TestBed } from "@/scripts/test-support/x402-app";

const bed = x402TestBed();

const network = () => config().networks.find((candidate) => candidate.id === "devnet")!;
const watch = () => scanNetwork(db(), network(), bed.devnet.client);
const problemType = (name: string) => `https://paymentauth.org/problems/${name}`;

/** An unpaid request's 402: its MPP challenges, its x402 PAYMENT-REQUIRED and its body. */
async function challenge(url: string, init?: RequestInit) {
  const response = await fetch(url, init);
  expect(response.status).toBe(402);
  return {
    response,
    challenges: mppChallengesOf(response.clone()),
    paymentRequired: decodePaymentRequiredHeader(response.headers.get("PAYMENT-REQUIRED") as string),
    body: await response.json(),
  };
}

const settlements = () => db().x402Settlement.count();

/** A new paylink, an agent holding `usdc`, and what it signs for the paylink's first challenge. */
async function signedPayment(price: string, usdc: string) {
  const { url } = await bed.app.paylink(price);
  const { account } = await x402Agent(bed.devnet, usdc);
  const { challenges, paymentRequired } = await challenge(url);
  const signed = await signMppChallenge(account, challenges[0] as never, paymentRequired.accepts[0]);
  return { url, account, signed };
}

describe("an x402 URL without a payment", () => {
  it("answers 402 with x402's PAYMENT-REQUIRED and an MPP evm charge challenge for the same quote, as a problem document", async () => {
    const { paylink: row, url } = await bed.app.paylink("5.00");
    const before = await settlements();
    const { response, challenges, paymentRequired, body } = await challenge(url);
    expect(await settlements()).toBe(before);
    expect(response.headers.get("content-type")).toBe("application/problem+json");
    expect(response.headers.get("cache-control")).toBe("no-store, no-transform");
    const [option] = paymentRequired.accepts;
    expect(challenges).toHaveLength(1);
    const [mpp] = challenges;
    expect(mpp).toMatchObject({
      realm: new URL(config().baseUrl).hostname,
      method: "evm",
      intent: "charge",
      request: {
        amount: "5000000",
        currency: getAddress(bed.devnet.usdc),
        recipient: getAddress(option.payTo),
        methodDetails: { chainId: 31337, credentialTypes: ["authorization"], decimals: 6 },
      },
    });
    // As long as an authorization may be valid (x402's maxTimeoutSeconds), never past the quote.
    const lifetime = Date.parse(mpp.expires as string) - Date.now();
    expect(lifetime).toBeGreaterThan(250_000);
    expect(lifetime).toBeLessThanOrEqual(300_000);
    expect(body).toMatchObject({
      type: problemType("payment-required"),
      title: "Payment Required",
      status: 402,
      challengeId: mpp.id,
      object: "x402_payment_required",
      resource: { kind: "paylink", id: row.id },
      error: null,
    });
    // x402's bazaar discovery: the service metadata within its validation rules, and `info` valid
    // against its own schema, as a facilitator checks before cataloguing it.
    expect(paymentRequired.resource).toMatchObject({
      serviceName: "Test Store",
      tags: ["payments", "checkout"],
    });
    const bazaar = paymentRequired.extensions?.bazaar as { info: unknown; schema: object };
    expect(bazaar.info).toMatchObject({ input: { type: "http", method: "GET" }, output: { type: "json" } });
    expect(new Ajv2020().validate(bazaar.schema, bazaar.info)).toBe(true);
    expect(new Ajv2020().validate(bazaar.schema, { input: { type: "http", method: "POST" } })).toBe(false);
    // Stateless and bound to what it says: each 402 a fresh id, and another amount is not ours.
    const again = await challenge(url);
    expect(again.challenges[0].id).not.toBe(mpp.id);
  });
  it("answers a paylink whose description has line breaks (a two-line textarea) with the challenge on one line", async () => {
    const { paylink: row, url } = await bed.app.paylink("2.00");
    await db().paylink.update({
      where: { id: row.id },
      data: { description: "Line one\r\nLine two\n\tand a tab\u0007" },
    });
    const { challenges, response } = await challenge(url);
    expect(challenges).toHaveLength(1);
    expect(challenges[0].description).toContain("Line one Line two and a tab");
    const header = response.headers.get("www-authenticate") as string;
    for (const control of ["\r", "\n", "\t", "\u0007"]) expect(header).not.toContain(control);
  });
  it("carries a long non-Latin description cut in its headers (under the 8 KB a proxy buffers), whole in the body, each header still readable", async () => {
    const { paylink: row, url } = await bed.app.paylink("2.00");
    // 1,000 characters (the paylink maximum), astral ones among them: a cut must not split a pair.
    const description = "支払い🙂".repeat(200);
    await db().paylink.update({ where: { id: row.id }, data: { description } });
    const { challenges, paymentRequired, response, body } = await challenge(url);
    let headerBytes = 0;
    response.headers.forEach((value, name) => {
      headerBytes += Buffer.byteLength(`${name}: ${value}\r\n`);
    });
    expect(headerBytes).toBeLessThan(8192);
    expect(body.description).toBe(description);
    const carried = [paymentRequired.resource.description as string, challenges[0].description as string];
    for (const text of carried) {
      expect(Array.from(text)).toHaveLength(200);
      expect(text).toMatch(/^Test Store: 支払い🙂支払い🙂.*…$/u);
      expect(text).not.toMatch(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])/);
    }
  });
});

describe("paying with mppx's EVM client", () => {
  it("moves exactly the price once, answers 200 with Payment-Receipt, pays the session, confirms it once from the payer; a replay is 402 and moves nothing", async () => {
    const { organization, url } = await bed.app.paylink("5.00");
    const { account } = await x402Agent(bed.devnet, "20");
    const buyer = mppBuyer(account);

    const response = await buyer.pay(url);
    expect(response.status).toBe(200);
    expect(response.headers.get("cache-control")).toBe("no-store, no-transform, private");
    const receipt = Receipt.deserialize(response.headers.get("Payment-Receipt") as string);
    expect(receipt).toEqual({
      method: "evm",
      reference: expect.stringMatching(/^0x[0-9a-f]{64}$/),
      status: "success",
      timestamp: expect.any(String),
    });
    const body = await response.json();
    expect(body).toMatchObject({
      object: "x402_payment",
      transaction: receipt.reference,
      payer: account.address,
      checkoutSession: { status: "COMPLETED", amount: "5.00" },
    });

    // On chain: exactly the price, once, from the payer to the challenge's recipient.
    expect(buyer.credentials).toHaveLength(1);
    const sent = Credential.deserialize(buyer.credentials[0]);
    const recipient = (sent.challenge.request as { recipient: string }).recipient;
    const mined = await bed.devnet.client.getTransactionReceipt({ hash: receipt.reference as Hex });
    const transfers = parseEventLogs({ abi: erc20Abi, logs: mined.logs, eventName: "Transfer" });
    expect(transfers.map(({ args }) => args)).toEqual([
      { from: account.address, to: getAddress(recipient), value: 5_000_000n },
    ]);
    expect(await bed.devnet.usdcBalance(account.address)).toBe(parseUnits("15", 6));

    await watch();
    await bed.devnet.mine(1);
    await watch();
    const invoice = await db().invoice.findFirstOrThrow({
      where: { organizationId: organization.id },
      include: { payments: true },
    });
    expect(invoice.status).toBe("CONFIRMED");
    expect(getAddress(invoice.depositAddress)).toBe(getAddress(recipient));
    expect(invoice.payments).toMatchObject([{ fromAddress: account.address, txHash: receipt.reference }]);
    expect(await db().event.count({ where: { invoiceId: invoice.id, type: "payment.confirmed" } })).toBe(1);
    expect(await db().x402Settlement.findFirstOrThrow({ where: { invoiceId: invoice.id } })).toMatchObject({
      status: "SETTLED",
      payer: account.address.toLowerCase(),
    });

    // The same credential again, twice at once: 402 with a fresh challenge each, nothing moved.
    const replays = await Promise.all(
      [1, 2].map(() => fetch(url, { headers: { Authorization: buyer.credentials[0] } })),
    );
    for (const replay of replays) {
      expect(replay.status).toBe(402);
      const [fresh] = mppChallengesOf(replay.clone());
      expect(fresh.id).not.toBe(sent.challenge.id);
      expect(await replay.json()).toMatchObject({
        type: problemType("verification-failed"),
        status: 402,
        error: { code: "credential_used" },
      });
    }
    expect(await bed.devnet.usdcBalance(account.address)).toBe(parseUnits("15", 6));
    expect(await db().invoice.count({ where: { organizationId: organization.id } })).toBe(1);
  });

  it("pays a merchant's checkout session", async () => {
    const { id, url } = await bed.app.session("3.00");
    const { account } = await x402Agent(bed.devnet, "3");
    const response = await mppBuyer(account).pay(url);
    expect(response.status).toBe(200);
    expect((await response.json()).checkoutSession).toMatchObject({ id, status: "COMPLETED" });
    expect(await bed.devnet.usdcBalance(account.address)).toBe(0n);
  });
});

describe("one authorization, two protocols", () => {
  it("an authorization settled over x402 is refused over MPP, and nothing moves twice", async () => {
    const { url, account, signed } = await signedPayment("2.00", "10");

    const overX402 = await fetch(url, {
      headers: { "PAYMENT-SIGNATURE": encodePaymentSignatureHeader(signed.x402 as PaymentPayload) },
    });
    expect(overX402.status).toBe(200);
    expect(await bed.devnet.usdcBalance(account.address)).toBe(parseUnits("8", 6));

    const overMpp = await fetch(url, { headers: { Authorization: signed.credential } });
    expect(overMpp.status).toBe(402);
    expect((await overMpp.json()).error.code).toBe("credential_used");
    expect(await bed.devnet.usdcBalance(account.address)).toBe(parseUnits("8", 6));
  });

  it("an authorization settled over MPP, sent again over x402, answers its one settlement and moves nothing more", async () => {
    const { url, account, signed } = await signedPayment("2.00", "10");

    const overMpp = await fetch(url, { headers: { Authorization: signed.credential } });
    expect(overMpp.status).toBe(200);
    const { reference } = Receipt.deserialize(overMpp.headers.get("Payment-Receipt") as string);
    const overX402 = await fetch(url, {
      headers: { "PAYMENT-SIGNATURE": encodePaymentSignatureHeader(signed.x402 as PaymentPayload) },
    });
    expect(overX402.status).toBe(200);
    expect((await overX402.json()).transaction).toBe(reference);
    expect(await bed.devnet.usdcBalance(account.address)).toBe(parseUnits("8", 6));
    expect(await db().x402Settlement.count({ where: { payer: account.address.toLowerCase() } })).toBe(1);
  });

  it("takes the credential in Payment-Authorization when Authorization carries another scheme", async () => {
    const { url, account, signed } = await signedPayment("1.00", "1");
    const paid = await fetch(url, {
      headers: { Authorization: "Bearer sk_live_not_ours", "Payment-Authorization": signed.credential },
    });
    expect(paid.status).toBe(200);
    expect(paid.headers.get("Payment-Receipt")).toBeTruthy();
    expect(await bed.devnet.usdcBalance(account.address)).toBe(0n);
  });

  it("@x402/fetch still pays the same URL", async () => {
    const { url } = await bed.app.paylink("1.00");
    const { account, pay } = await x402Agent(bed.devnet, "1");
    expect((await pay(url)).status).toBe(200);
    expect(await bed.devnet.usdcBalance(account.address)).toBe(0n);
  });
});

describe("refused credentials", () => {
  it.each([
    ["garbage", () => "Payment dGhpcyBpcyBnYXJiYWdl", "malformed-credential", "malformed_credential"],
  ])(
    "answers a %s credential 402 with a fresh challenge and a problem document",
    async (_name, credential, type, code) => {
      const { url } = await bed.app.paylink("1.00");
      const { response, challenges, body } = await challenge(url, {
        headers: { Authorization: credential() },
      });
      expect(response.headers.get("content-type")).toBe("application/problem+json");
      expect(challenges).toHaveLength(1);
      expect(body).toMatchObject({ type: problemType(type), status: 402, error: { code } });
    },
  );

  it("refuses a challenge altered by the client (another amount or expiry), an expired one, one for another resource, and an authorization not bound to it; nothing moves", async () => {
    const { url } = await bed.app.paylink("2.00");
    const other = await bed.app.paylink("2.00");
    const { account } = await x402Agent(bed.devnet, "10");
    const { challenges, paymentRequired } = await challenge(url);
    const [issued] = challenges as never[] as Parameters<typeof signMppChallenge>[1][];
    const accepted = paymentRequired.accepts[0];
    const altered = { ...issued, request: { ...issued.request, amount: "1" } };
    const postdated = { ...issued, expires: new Date(Date.now() + 60_000).toISOString() };
    // One we issued, expired: as a 402 of 10 minutes ago would have offered the same quote.
    const [expired] = mppChallenges(paymentRequired, new Date(Date.now() - 600_000)) as never[];
    const cases = [
      [url, altered, "invalid-challenge", "invalid_challenge"],
      [url, postdated, "invalid-challenge", "invalid_challenge"],
      [url, expired, "payment-expired", "challenge_expired"],
      [other.url, issued, "invalid-challenge", "challenge_for_another_resource"],
      // Signed for this challenge, with a nonce of its own: the challenge could pay twice.
      [url, issued, "verification-failed", "nonce_mismatch", `0x${"11".repeat(32)}`],
    ] as const;
    for (const [target, sentChallenge, type, code, nonce] of cases) {
      const { credential } = await signMppChallenge(account, sentChallenge, accepted, nonce as never);
      const refused = await challenge(target, { headers: { Authorization: credential } });
      expect(refused.body).toMatchObject({ type: problemType(type), error: { code } });
      expect(refused.challenges).toHaveLength(1);
    }
    expect(await bed.devnet.usdcBalance(account.address)).toBe(parseUnits("10", 6));
  });
});
