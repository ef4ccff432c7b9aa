// The facilitator's stuck nonce while the base fee stays above the cap of its first fee: a
// transfer to itself frees it, up to what the first transaction could cost at the cap. A real
// Hardhat node (its base fee set block by block), viem's client as the checker.
import { type Hex, parseGwei, toHex, WaitForTransactionReceiptTimeoutError } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { afterEach, describe, expect, it } from "vitest";
import { testDevnetForFile } from "@/scripts/test-support/test-devnet";
import { awaitFacilitatorReceipt } from "./await-facilitator-receipt";
import { followChainHead } from "./follow-chain-head";
import { facilitatorNonce } from "./replace-facilitator-transaction";

const devnet = testDevnetForFile({ confirmations: 1 });

let miner: ReturnType<typeof setInterval> | undefined;
afterEach(() => clearInterval(miner));

/** Mines a block every 100 ms at `baseFee` (a base fee that stays put, however empty the blocks). */
const mineAt = async (baseFee: bigint) => {
  clearInterval(miner);
  const block = async () => {
    await devnet.rpc("hardhat_setNextBlockBaseFeePerGas", [toHex(baseFee)]);
    await devnet.mine();
  };
  await block();
  miner = setInterval(() => void block().catch(() => undefined), 100);
};

describe("a facilitator transaction stuck under a high base fee", () => {
  it("is freed by a transfer to itself past the fee cap, but not past what the first transaction could cost at the cap", async () => {
    const account = privateKeyToAccount(generatePrivateKey());
    const { client } = devnet;
    await devnet.sendEth(account.address, "1");
    await devnet.rpc("evm_setAutomine", [false]);
    // First fee 1 gwei: the cap is 4 gwei; a 21,000-gas transfer to itself may offer up to
    // 4 gwei × 100,000 / 21,000 ≈ 19 gwei.
    const nonce = await client.getTransactionCount({ address: account.address });
    const first = {
      to: devnet.usdc,
      data: "0x" as Hex,
      nonce,
      gas: 100_000n,
      maxFeePerGas: parseGwei("1"),
      maxPriorityFeePerGas: parseGwei("1"),
      chainId: devnet.network.chainId,
    };
    const raw = await account.signTransaction({ ...first, type: "eip1559" });
    await mineAt(parseGwei("30"));
    const sent = { ...first, raw, hash: await client.sendRawTransaction({ serializedTransaction: raw }) };
    const following = {
      stuckAfterMs: 200,
      timeoutMs: 3000,
      blockTimeMs: 100,
      head: followChainHead(client, 100),
    };

    // 30 gwei (the node asks about 37): past that too, nothing replaces it.
    await expect(
      awaitFacilitatorReceipt(client, account, facilitatorNonce(sent), following),
    ).rejects.toBeInstanceOf(WaitForTransactionReceiptTimeoutError);
    expect(await client.getTransactionCount({ address: account.address })).toBe(nonce);

    // 10 gwei (the node asks about 13): over the cap, within the transfer to itself's ceiling.
    await mineAt(parseGwei("10"));
    const replaced = await awaitFacilitatorReceipt(client, account, facilitatorNonce(sent), following).catch(
      (error: Error) => error.message,
    );
    const hash = /replaced by (0x[0-9a-f]{64})/.exec(String(replaced))?.[1] as Hex;
    expect(await client.getTransactionCount({ address: account.address })).toBe(nonce + 1);
    expect(await client.getTransaction({ hash })).toMatchObject({
      nonce,
      to: account.address.toLowerCase(),
      input: "0x",
      gas: 21_000n,
    });
  });
});
