import { privateKeyToAccount } from "viem/accounts";
import { describe, expect, it } from "vitest";
import type { SignedTransaction } from "../generated/prisma/client";
import { bumpFee, withinFeeCap } from "./bump-fee";

const account = privateKeyToAccount("0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d");

async function signed(maxFeePerGas: bigint, maxPriorityFeePerGas: bigint) {
  const raw = await account.signTransaction({
    to: "0x00000000000000000000000000000000000000aa",
    value: 5n,
    gas: 21_000n,
    maxFeePerGas,
    maxPriorityFeePerGas,
    nonce: 3,
    chainId: 31337,
    type: "eip1559",
  });
  return { raw, maxFeePerGas: { toFixed: () => maxFeePerGas.toString() } } as unknown as SignedTransaction;
}

describe("bumpFee", () => {
  it("raises both fees by a quarter (a zero tip by one wei) and keeps the rest of the transaction", async () => {
    const first = await signed(100n, 0n);
    const bump = bumpFee(first, first, 21_000n);
    expect(bump.unsigned).toMatchObject({
      value: 5n,
      gas: 21_000n,
      maxFeePerGas: 125n,
      maxPriorityFeePerGas: 1n,
    });
    expect(bump).toMatchObject({ previousMaxFeePerGas: 100n, cap: 400n });
  });

  // The first fee 100 sets the cap at 400: [fee of the stuck transaction, proposed fee, allowed].
  it.each([
    [100n, 125n, true],
    [320n, 400n, true],
    [360n, 450n, false],
    [100n, 100n, false],
  ])("after %i, %i is within the cap: %s", async (stuck, proposed, allowed) => {
    const bump = bumpFee(await signed(100n, 1n), await signed(stuck, 1n), 21_000n);
    expect(withinFeeCap(bump, proposed)).toBe(allowed);
  });
});
