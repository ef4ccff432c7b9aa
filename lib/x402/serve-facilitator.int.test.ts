import { HTTPFacilitatorClient } from "@x402/core/server";
import type { PaymentRequirements } from "@x402/core/types";
import { type Hex, parseUnits } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sweeperKeysFromMnemonic } from "@/lib/sweeps/sweeper-keys";
import { startTestDevnet, type TestDevnet } from "@/scripts/test-support/test-devnet";
import { devnetExactRequirements, signDevnetPayment } from "@/scripts/test-support/x402-buyer";
import { createBuiltInFacilitator } from "./create-built-in-facilitator";
import { type FacilitatorServer, maxFacilitatorBodyBytes, serveFacilitator } from "./serve-facilitator";

// The signing role's facilitator over real HTTP, spoken to by x402's own HTTP facilitator client
// (what the web tier uses) and by hand for what that client never sends.

const mnemonic =
  "abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon about";
const token = "facilitator-token-0123456789";
let devnet: TestDevnet;
let server: FacilitatorServer;
const merchant = privateKeyToAccount(generatePrivateKey()).address;

beforeAll(async () => {
  devnet = await startTestDevnet({ confirmations: 1, priceFeeds: false, mnemonic });
  server = await serveFacilitator({
    facilitator: createBuiltInFacilitator({
      mnemonic,
      networks: [devnet.network],
      ownsPayee: async () => true,
      recordsBroadcast: async () => true,
      recordedBroadcasts: async () => [],
    }),
    host: "127.0.0.1",
    port: 0,
    token,
  });
}, 120_000);
afterAll(async () => {
  await server?.close();
  await devnet?.stop();
});

const client = (bearer = token) =>
  new HTTPFacilitatorClient({
    url: server.url,
    createAuthHeaders: async () => {
      const headers = { Authorization: `Bearer ${bearer}` };
      return { verify: headers, settle: headers, supported: headers };
    },
  });

const requirements = (): PaymentRequirements => devnetExactRequirements(devnet.usdc, "0.5", merchant);

async function payment() {
  const payer = privateKeyToAccount(generatePrivateKey());
  await devnet.mintUsdc(payer.address, "1");
  const payload = await signDevnetPayment(payer, requirements());
  return { payer, payload };
}

const post = (path: string, body: string, headers: Record<string, string> = {}) =>
  fetch(`${server.url}${path}`, {
    method: "POST",
    headers: { "Content-Type": "application/json", Authorization: `Bearer ${token}`, ...headers },
    body,
  });

describe("the x402 facilitator server", () => {
  it("answers /supported with the devnet's exact scheme and the facilitator wallet", async () => {
    expect(await client().getSupported()).toEqual({
      kinds: [{ x402Version: 2, scheme: "exact", network: "eip155:31337" }],
      extensions: [],
      signers: { "eip155:*": [sweeperKeysFromMnemonic(mnemonic).facilitatorWallet(31337).address] },
    });
  });

  it("verifies and settles through x402's HTTP facilitator client", async () => {
    const { payer, payload } = await payment();
    expect(await client().verify(payload, requirements())).toMatchObject({
      isValid: true,
      payer: payer.address,
    });
    const settled = await client().settle(payload, requirements());
    expect(settled).toMatchObject({ success: true, network: "eip155:31337", payer: payer.address });
    expect((await devnet.client.getTransactionReceipt({ hash: settled.transaction as Hex })).status).toBe(
      "success",
    );
    expect(await devnet.usdcBalance(merchant)).toBe(parseUnits("0.5", 6));
    expect(await devnet.usdcBalance(payer.address)).toBe(parseUnits("0.5", 6));
    // A refused settlement is an answer, not an error.
    expect(await client().settle(payload, requirements())).toMatchObject({
      success: false,
      errorReason: "invalid_exact_evm_nonce_already_used",
    });
    // Refusals say why in our words, from the reason code: never the library's or the node's text.
    const body = JSON.stringify({
      x402Version: 2,
      paymentPayload: payload,
      paymentRequirements: requirements(),
    });
    const [verified, settledAgain] = await Promise.all(
      ["/verify", "/settle"].map(async (path) => (await post(path, body)).json()),
    );
    expect(verified).toMatchObject({
      isValid: false,
      invalidMessage: `The payment is not valid (${verified.invalidReason}).`,
    });
    expect(settledAgain).toMatchObject({
      success: false,
      errorMessage: "The payment was not settled (invalid_exact_evm_nonce_already_used).",
    });
  });

  const unauthorized: [string, Record<string, string>][] = [
    ["no token", { Authorization: "" }],
    ["a wrong token", { Authorization: "Bearer facilitator-token-0123456780" }],
    ["a shorter token", { Authorization: "Bearer facilitator" }],
    ["another scheme", { Authorization: `Basic ${token}` }],
  ];
  it.each(unauthorized)("refuses %s with 401 and settles nothing", async (_label, headers) => {
    const { payer, payload } = await payment();
    for (const path of ["/verify", "/settle"]) {
      const response = await post(
        path,
        JSON.stringify({ x402Version: 2, paymentPayload: payload, paymentRequirements: requirements() }),
        headers,
      );
      expect([response.status, response.headers.get("www-authenticate"), await response.json()]).toEqual([
        401,
        "Bearer",
        { error: "unauthorized" },
      ]);
    }
    const supported = await fetch(`${server.url}/supported`, { headers });
    expect(supported.status).toBe(401);
    expect(await devnet.usdcBalance(payer.address)).toBe(parseUnits("1", 6));
  });

  it("refuses a wrong token through x402's client, which reports the failure", async () => {
    await expect(client("facilitator-token-wrong-012").getSupported()).rejects.toThrow(/401/);
  });

  const badBodies: [string, string, string][] = [
    ["not JSON", "{not json", "the body is not JSON"],
    ["an empty body", "", "the body is not JSON"],
    ["a list", "[]", "the body must be a JSON object {x402Version, paymentPayload, paymentRequirements}"],
    ["x402 v1", JSON.stringify({ x402Version: 1 }), "x402Version must be 2"],
    ["no payload", JSON.stringify({ x402Version: 2 }), "paymentPayload is missing or not an object"],
    [
      "requirements without a network",
      JSON.stringify({
        x402Version: 2,
        paymentPayload: {
          x402Version: 2,
          accepted: {
            scheme: "exact",
            network: "eip155:31337",
            amount: "1",
            asset: "0x1",
            payTo: "0x2",
            maxTimeoutSeconds: 1,
          },
          payload: {},
        },
        paymentRequirements: {
          scheme: "exact",
          amount: "1",
          asset: "0x1",
          payTo: "0x2",
          maxTimeoutSeconds: 1,
        },
      }),
      "paymentRequirements.network is invalid",
    ],
  ];
  it.each(badBodies)("answers %s with 400", async (_label, body, error) => {
    for (const path of ["/verify", "/settle"]) {
      const response = await post(path, body);
      expect([response.status, await response.json()]).toEqual([400, { error }]);
    }
  });

  it("refuses a body over the limit with 413", async () => {
    const response = await post("/settle", JSON.stringify({ padding: "x".repeat(maxFacilitatorBodyBytes) }));
    expect(response.status).toBe(413);
  });

  const wrongRoutes: [string, string, number][] = [
    ["GET", "/settle", 405],
    ["POST", "/supported", 405],
    ["GET", "/", 404],
    ["POST", "/refund", 404],
  ];
  it.each(wrongRoutes)("answers %s %s with %i", async (method, path, status) => {
    const response = await fetch(`${server.url}${path}`, {
      method,
      headers: { Authorization: `Bearer ${token}` },
    });
    expect(response.status).toBe(status);
  });

  it("will not listen beyond loopback without a token", async () => {
    await expect(
      serveFacilitator({
        facilitator: createBuiltInFacilitator({
          mnemonic,
          networks: [devnet.network],
          ownsPayee: async () => true,
          recordsBroadcast: async () => true,
          recordedBroadcasts: async () => [],
        }),
        host: "0.0.0.0",
        port: 0,
      }),
    ).rejects.toThrow(/only with a bearer token/);
  });
});
