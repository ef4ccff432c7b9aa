// A refused settlement is failed for the payer's funds only from the authorization's state and the
// payer's balance of one block: its transfer landing between the reads must not make a payer who
// just paid look short of the value (real Hardhat node, behind a JSON-RPC proxy that lands it).
import { randomBytes } from "node:crypto";
import { type Hex, parseAbi } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { afterAll, describe, expect, it } from "vitest";
import { Prisma } from "@/lib/generated/prisma/client";
import { testDevnetForFile } from "@/scripts/test-support/test-devnet";
import { devnetExactRequirements, signDevnetPayment } from "@/scripts/test-support/x402-buyer";
import { serveJson } from "@/scripts/test-support/x402-facilitator-stub";
import { decideX402Settlement } from "./decide-x402-settlement";

const devnet = testDevnetForFile({ confirmations: 1 });
const balanceOfSelector = "0x70a08231";
/** Called once, when the proxy first sees a balanceOf: the authorization's transfer lands then. */
let beforeFirstBalance: (() => Promise<void>) | undefined;
/** While it lands, every call waits: none reads the chain from before it. */
let landing: Promise<void> | undefined;
const proxy = await serveJson<{ method: string; params?: { data?: string }[] }>(async (_path, call) => {
  const data = call.params?.[0]?.data ?? "";
  if (call.method === "eth_call" && data.startsWith(balanceOfSelector) && beforeFirstBalance) {
    landing = beforeFirstBalance();
    beforeFirstBalance = undefined;
  }
  await landing;
  const upstream = await fetch(devnet.rpcUrl, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(call),
  });
  return upstream.json();
});
afterAll(() => proxy.close());

describe("deciding a refused settlement", () => {
  it("a transfer landing between the reads: still settling, then settled; never insufficient_funds", async () => {
    const payer = privateKeyToAccount(generatePrivateKey());
    await devnet.mintUsdc(payer.address, "1");
    const payTo = `0x${randomBytes(20).toString("hex")}` as Hex;
    const payment = await signDevnetPayment(payer, devnetExactRequirements(devnet.usdc, "1", payTo));
    const authorization = payment.payload.authorization as Record<string, string>;
    const row = {
      id: "x402_pinned",
      asset: devnet.usdc.toLowerCase(),
      payer: payer.address.toLowerCase(),
      nonce: authorization.nonce!.toLowerCase(),
      payTo: payTo.toLowerCase(),
      amount: new Prisma.Decimal(authorization.value!),
      validBefore: new Date(Number(authorization.validBefore) * 1000),
      createdAt: new Date(),
    };
    let landed: Hex | undefined;
    beforeFirstBalance = async () => {
      landed = await devnet.wallet.writeContract({
        address: devnet.usdc,
        abi: parseAbi([
          "function transferWithAuthorization(address from, address to, uint256 value, uint256 validAfter, uint256 validBefore, bytes32 nonce, bytes signature)",
        ]),
        functionName: "transferWithAuthorization",
        args: [
          payer.address,
          payTo,
          BigInt(authorization.value!),
          BigInt(authorization.validAfter!),
          BigInt(authorization.validBefore!),
          authorization.nonce as Hex,
          payment.payload.signature as Hex,
        ],
      });
      await devnet.client.waitForTransactionReceipt({ hash: landed });
    };
    const network = { ...devnet.network, id: "devnet-behind-proxy", rpcUrl: proxy.url };
    const options = { sent: null, wallets: [], now: new Date(), refused: true };

    const first = await decideX402Settlement(network, row, options);
    expect(landed).toBeDefined();
    expect(await devnet.usdcBalance(payTo)).toBe(1_000_000n);
    expect(first).toMatchObject({ status: "SETTLING", errorReason: null });
    const second = await decideX402Settlement(network, row, options);
    expect(second).toMatchObject({ status: "SETTLED", transaction: landed });
  });
});
