import { eip3009ABI } from "@x402/evm";
import {
  encodeFunctionData,
  erc20Abi,
  type Hex,
  keccak256,
  type PublicClient,
  parseGwei,
  type Transaction,
} from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { describe, expect, it } from "vitest";
import { findFacilitatorTransaction } from "./find-facilitator-transaction";

// The node is the other side here: it may show what another process of ours sent, or lie. Only a
// transaction this wallet signed is ever signed again; anything else leaves a transfer of nothing
// to the wallet itself at the network's fees.

const chainId = 31337;
const nonce = 7;
const wallet = privateKeyToAccount(generatePrivateKey());
const token = "0x5FbDB2315678afecb367f032d93F642f64180aa3" as const;
const attacker = "0x000000000000000000000000000000000000bEEF" as const;
const network = { maxFeePerGas: parseGwei("2"), maxPriorityFeePerGas: parseGwei("1") };

const settlement = encodeFunctionData({
  abi: eip3009ABI,
  functionName: "transferWithAuthorization",
  args: [attacker, token, 1_000_000n, 0n, 2n ** 40n, `0x${"11".repeat(32)}`, `0x${"22".repeat(65)}`],
});
const drain = encodeFunctionData({ abi: erc20Abi, functionName: "transfer", args: [attacker, 10n ** 12n] });

type Shown = Omit<Transaction, "hash"> & { hash?: Hex };

/** A transaction as the node shows it; signed by the wallet when `signed`, else with a made-up hash. */
async function shown(fields: { to: Hex; data: Hex; fees?: typeof network; nonce?: number; signed: boolean }) {
  const unsigned = {
    to: fields.to,
    data: fields.data,
    nonce: fields.nonce ?? nonce,
    gas: 90_000n,
    ...(fields.fees ?? network),
    chainId,
  };
  const raw = await wallet.signTransaction({ ...unsigned, type: "eip1559" });
  return {
    ...unsigned,
    input: unsigned.data,
    type: "eip1559",
    from: wallet.address,
    value: 0n,
    hash: fields.signed ? keccak256(raw) : keccak256(`0x${"33".repeat(32)}`),
  } as unknown as Shown & { hash: Hex };
}

/** A node that shows `pending` in its pending block and `byHash` by their hashes. */
function node({ pending = [], byHash = [] }: { pending?: Shown[]; byHash?: Shown[] }) {
  return {
    getTransaction: async ({ hash }: { hash: Hex }) => {
      const found = byHash.find((transaction) => transaction.hash === hash);
      if (!found) throw new Error("not found");
      return found;
    },
    getBlock: async () => ({ transactions: pending }),
    estimateFeesPerGas: async () => network,
  } as unknown as PublicClient;
}

describe("findFacilitatorTransaction", () => {
  it.each([
    ["an ERC-20 transfer 'from' the wallet, with a made-up hash", { to: token, data: drain, signed: false }],
    ["an ERC-20 transfer the wallet could have signed", { to: token, data: drain, signed: true }],
    ["an authorization's transfer with a made-up hash", { to: token, data: settlement, signed: false }],
    ["a transfer of nothing to someone else", { to: attacker, data: "0x" as Hex, signed: true }],
    ["our transfer at another nonce", { to: token, data: settlement, nonce: nonce + 1, signed: true }],
  ])("fills the nonce with nothing to itself when the node shows %s", async (_, fields) => {
    const transaction = await shown(fields);
    for (const client of [node({ pending: [transaction] }), node({ byHash: [transaction] })]) {
      const found = await findFacilitatorTransaction(client, wallet, {
        nonce,
        chainId,
        recorded: [transaction.hash],
      });
      expect(found.current).toMatchObject({
        to: wallet.address,
        data: "0x",
        gas: 21_000n,
        nonce,
        ...network,
      });
      expect(found.first).toEqual(found.current);
    }
  });

  it.each([
    ["in the pending block", "pending"],
    ["by the hash a row recorded", "byHash"],
  ] as const)("sends our own transfer again, found %s", async (_, where) => {
    const ours = await shown({ to: token, data: settlement, signed: true });
    const found = await findFacilitatorTransaction(node({ [where]: [ours] }), wallet, {
      nonce,
      chainId,
      recorded: where === "byHash" ? [ours.hash] : [],
    });
    expect(found.current).toMatchObject({ to: token, data: settlement, hash: ours.hash, gas: 90_000n });
    expect(keccak256(found.current.raw)).toBe(ours.hash);
  });

  it("counts the caps from the network's fees when ours were raised past them", async () => {
    const raised = { maxFeePerGas: parseGwei("40"), maxPriorityFeePerGas: parseGwei("20") };
    const ours = await shown({ to: token, data: settlement, fees: raised, signed: true });
    const found = await findFacilitatorTransaction(node({ pending: [ours] }), wallet, {
      nonce,
      chainId,
      recorded: [],
    });
    expect(found.current).toMatchObject(raised);
    expect(found.first).toMatchObject({ ...network, hash: ours.hash });
  });
});
