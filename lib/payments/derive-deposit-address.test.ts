import { describe, expect, it } from "vitest";
import { depositAddress, hdKeyFromMnemonic } from "./derive-deposit-address";

// The well-known development mnemonic; its first addresses are published test vectors.
const root = hdKeyFromMnemonic("test test test test test test test test test test test junk");

describe("deposit addresses", () => {
  it.each([
    [0, "0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266"],
    [1, "0x70997970C51812dc3A010C7d01b50e0d17dc79C8"],
    [2, "0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC"],
  ])("index %i derives %s", (index, address) => {
    expect(depositAddress(root, index)).toBe(address);
  });

  it("gives every index its own address", () => {
    const addresses = new Set(Array.from({ length: 200 }, (_, index) => depositAddress(root, index)));
    expect(addresses.size).toBe(200);
  });

  it.each([-1, 1.5, 2 ** 31])("refuses index %s", (index) => {
    expect(() => depositAddress(root, index)).toThrow(RangeError);
  });
});
