import { type Address, getAddress, type Hex, parseSignature, parseUnits } from "viem";
import { generatePrivateKey, type PrivateKeyAccount, privateKeyToAccount } from "viem/accounts";
import { describe, expect, it } from "vitest";
import { testDevnetForFile } from "@/scripts/test-support/test-devnet";
import { compileTestUsdc } from "./compile-test-usdc";
import { testUsdcEip3009 } from "./devnet";

// The devnet's test USDC as EIP-3009 defines it, checked with signatures made here by viem from
// the standard's typed data (not the contract's own hashing): whoever submits an authorization,
// the payer's tokens move exactly once, inside its window, only with the payer's signature.

const devnet = testDevnetForFile({ confirmations: 1, priceFeeds: false });
const { abi } = compileTestUsdc();

const now = () => BigInt(Math.floor(Date.now() / 1000));
const randomNonce = () => generatePrivateKey() as Hex;

type Authorization = {
  from: Address;
  to: Address;
  value: bigint;
  validAfter: bigint;
  validBefore: bigint;
  nonce: Hex;
};

function authorization(payer: PrivateKeyAccount, to: Address, changes: Partial<Authorization> = {}) {
  return {
    from: payer.address,
    to,
    value: parseUnits("2.5", 6),
    validAfter: 0n,
    validBefore: now() + 600n,
    nonce: randomNonce(),
    ...changes,
  };
}

function sign(
  signer: PrivateKeyAccount,
  message: Authorization,
  primaryType: "TransferWithAuthorization" | "ReceiveWithAuthorization" = "TransferWithAuthorization",
) {
  return signer.signTypedData({
    domain: { ...testUsdcEip3009, chainId: devnet.network.chainId, verifyingContract: devnet.usdc },
    types: {
      [primaryType]: [
        { name: "from", type: "address" },
        { name: "to", type: "address" },
        { name: "value", type: "uint256" },
        { name: "validAfter", type: "uint256" },
        { name: "validBefore", type: "uint256" },
        { name: "nonce", type: "bytes32" },
      ],
    },
    primaryType,
    message,
  });
}

const args = (message: Authorization) =>
  [message.from, message.to, message.value, message.validAfter, message.validBefore, message.nonce] as const;

/** Submits a transferWithAuthorization from the funded account with a (v, r, s) signature. */
async function submit(message: Authorization, signature: Hex, functionName = "transferWithAuthorization") {
  const { v, r, s } = parseSignature(signature);
  const hash = await devnet.wallet.writeContract({
    address: devnet.usdc,
    abi,
    functionName,
    args: [...args(message), Number(v), r, s],
  });
  return devnet.client.waitForTransactionReceipt({ hash });
}

async function fundedPayer() {
  const payer = privateKeyToAccount(generatePrivateKey());
  await devnet.mintUsdc(payer.address, "10");
  return payer;
}

const read = (functionName: string, callArgs: unknown[] = []) =>
  devnet.client.readContract({ address: devnet.usdc, abi, functionName, args: callArgs });

describe("the devnet's test USDC (EIP-3009)", () => {
  it("keeps its name, symbol and 6 decimals, with the EIP-712 domain it signs under", async () => {
    expect([await read("name"), await read("symbol"), await read("decimals"), await read("version")]).toEqual(
      ["Test USD Coin", "USDC", 6, "2"],
    );
    expect(await read("eip712Domain")).toEqual([
      "0x0f",
      testUsdcEip3009.name,
      testUsdcEip3009.version,
      BigInt(devnet.network.chainId),
      getAddress(devnet.usdc),
      `0x${"0".repeat(64)}`,
      [],
    ]);
  });

  it("moves exactly the authorized amount from a payer without gas, once", async () => {
    const payer = await fundedPayer();
    const payee = privateKeyToAccount(generatePrivateKey()).address;
    const message = authorization(payer, payee);
    const receipt = await submit(message, await sign(payer, message));
    expect(receipt.status).toBe("success");
    expect(await devnet.usdcBalance(payer.address)).toBe(parseUnits("7.5", 6));
    expect(await devnet.usdcBalance(payee)).toBe(parseUnits("2.5", 6));
    expect(await devnet.client.getBalance({ address: payer.address })).toBe(0n);
    expect(await read("authorizationState", [payer.address, message.nonce])).toBe(true);
    // The replay is refused and moves nothing.
    await expect(submit(message, await sign(payer, message))).rejects.toThrow(
      /authorization is used or canceled/,
    );
    expect(await devnet.usdcBalance(payee)).toBe(parseUnits("2.5", 6));
  });

  it("takes the signature as bytes too", async () => {
    const payer = await fundedPayer();
    const payee = privateKeyToAccount(generatePrivateKey()).address;
    const message = authorization(payer, payee);
    const hash = await devnet.wallet.writeContract({
      address: devnet.usdc,
      abi,
      functionName: "transferWithAuthorization",
      args: [...args(message), await sign(payer, message)],
    });
    expect((await devnet.client.waitForTransactionReceipt({ hash })).status).toBe("success");
    expect(await devnet.usdcBalance(payee)).toBe(parseUnits("2.5", 6));
  });

  const refusals: [
    string,
    (payer: PrivateKeyAccount, payee: Address) => Promise<[Authorization, Hex]>,
    RegExp,
  ][] = [
    [
      "a signature by someone else",
      async (payer, payee) => {
        const message = authorization(payer, payee);
        return [message, await sign(privateKeyToAccount(generatePrivateKey()), message)];
      },
      /invalid signature/,
    ],
    [
      "a signature over another amount",
      async (payer, payee) => {
        const message = authorization(payer, payee);
        return [{ ...message, value: message.value + 1n }, await sign(payer, message)];
      },
      /invalid signature/,
    ],
    [
      "an expired window",
      async (payer, payee) => {
        // The last block's time: every later block, and a call simulated on one, is past it.
        const { timestamp } = await devnet.client.getBlock();
        const message = authorization(payer, payee, { validBefore: timestamp });
        return [message, await sign(payer, message)];
      },
      /authorization is expired/,
    ],
    [
      "a window not yet open",
      async (payer, payee) => {
        const message = authorization(payer, payee, { validAfter: now() + 600n });
        return [message, await sign(payer, message)];
      },
      /authorization is not yet valid/,
    ],
    [
      "more than the payer holds",
      async (payer, payee) => {
        const message = authorization(payer, payee, { value: parseUnits("10.01", 6) });
        return [message, await sign(payer, message)];
      },
      /transfer amount exceeds balance/,
    ],
  ];
  it.each(refusals)("refuses %s and moves nothing", async (_label, make, reason) => {
    const payer = await fundedPayer();
    const payee = privateKeyToAccount(generatePrivateKey()).address;
    const [message, signature] = await make(payer, payee);
    await expect(submit(message, signature)).rejects.toThrow(reason);
    expect(await devnet.usdcBalance(payer.address)).toBe(parseUnits("10", 6));
    expect(await read("authorizationState", [payer.address, message.nonce])).toBe(false);
  });

  it("lets only the payee submit a receiveWithAuthorization", async () => {
    const payer = await fundedPayer();
    const payee = privateKeyToAccount(generatePrivateKey());
    await devnet.sendEth(payee.address, "1");
    const message = authorization(payer, payee.address);
    const signature = await sign(payer, message, "ReceiveWithAuthorization");
    await expect(submit(message, signature, "receiveWithAuthorization")).rejects.toThrow(
      /caller must be the payee/,
    );
    const { v, r, s } = parseSignature(signature);
    const hash = await devnet.wallet.writeContract({
      account: payee,
      address: devnet.usdc,
      abi,
      functionName: "receiveWithAuthorization",
      args: [...args(message), Number(v), r, s],
    });
    expect((await devnet.client.waitForTransactionReceipt({ hash })).status).toBe("success");
    expect(await devnet.usdcBalance(payee.address)).toBe(parseUnits("2.5", 6));
  });

  it("cancels an unused authorization, after which it cannot be used", async () => {
    const payer = await fundedPayer();
    const payee = privateKeyToAccount(generatePrivateKey()).address;
    const message = authorization(payer, payee);
    const cancel = await payer.signTypedData({
      domain: { ...testUsdcEip3009, chainId: devnet.network.chainId, verifyingContract: devnet.usdc },
      types: {
        CancelAuthorization: [
          { name: "authorizer", type: "address" },
          { name: "nonce", type: "bytes32" },
        ],
      },
      primaryType: "CancelAuthorization",
      message: { authorizer: payer.address, nonce: message.nonce },
    });
    const hash = await devnet.wallet.writeContract({
      address: devnet.usdc,
      abi,
      functionName: "cancelAuthorization",
      args: [payer.address, message.nonce, cancel],
    });
    expect((await devnet.client.waitForTransactionReceipt({ hash })).status).toBe("success");
    await expect(submit(message, await sign(payer, message))).rejects.toThrow(
      /authorization is used or canceled/,
    );
    expect(await devnet.usdcBalance(payer.address)).toBe(parseUnits("10", 6));
  });
});
