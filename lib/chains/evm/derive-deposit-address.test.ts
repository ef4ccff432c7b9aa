import { secp256k1 } from "@noble/curves/secp256k1.js";
import { bytesToHex } from "viem";
import { publicKeyToAddress } from "viem/accounts";
import { describe, expect, it } from "vitest";
import { depositAddress, depositKeyFromMnemonic, depositKeyFromXpub } from "./derive-deposit-address";

// The well-known development mnemonic; its first addresses are published test vectors.
const mnemonic = "test test test test test test test test test test test junk";
const fromMnemonic = depositKeyFromMnemonic(mnemonic);
// The extended public key of that mnemonic's account m/44'/60'/0'.
const accountXpub =
  "xpub6Ce9NcJvTk36xtLSrJLZqE7wtgA5deCeYs7rSQtreh4cj6ByPtrg9sD7V2FNFLPnf8heNP3FGkeV9qwfzvZNSd54JoNXVsXFYSYwHsnJxqP";
const fromXpub = depositKeyFromXpub(accountXpub);

describe("deposit addresses", () => {
  it.each([
    [0, "0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266"],
    [1, "0x70997970C51812dc3A010C7d01b50e0d17dc79C8"],
    [2, "0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC"],
  ])("index %i derives %s, from the mnemonic and from the account xpub alike", (index, address) => {
    expect(depositAddress(fromMnemonic, index)).toBe(address);
    expect(depositAddress(fromXpub, index)).toBe(address);
  });

  it("derives the same addresses from the xpub as from the mnemonic, without any private key", () => {
    expect(fromXpub.privateKey).toBeNull();
    const indexes = [...Array.from({ length: 200 }, (_, index) => index), 2 ** 31 - 1];
    for (const index of indexes)
      expect(depositAddress(fromXpub, index)).toBe(depositAddress(fromMnemonic, index));
  });

  it("agrees with @scure/bip32's own child derivation at every index tried", () => {
    const indexes = [...Array.from({ length: 300 }, (_, index) => index), 2 ** 31 - 1, 123_456_789];
    for (const index of indexes) {
      const child = secp256k1.Point.fromBytes(fromXpub.deriveChild(index).publicKey as Uint8Array);
      expect(depositAddress(fromXpub, index)).toBe(publicKeyToAddress(bytesToHex(child.toBytes(false))));
    }
  });

  it("gives every index its own address", () => {
    const addresses = new Set(Array.from({ length: 200 }, (_, index) => depositAddress(fromXpub, index)));
    expect(addresses.size).toBe(200);
  });

  it.each([-1, 1.5, 2 ** 31])("refuses index %s", (index) => {
    expect(() => depositAddress(fromMnemonic, index)).toThrow(RangeError);
  });
});
