import { mnemonicToSeedSync } from "@scure/bip39";
import { describe, expect, it } from "vitest";
import { mnemonicSeed } from "./mnemonic-seed";

const mnemonics = [
  "test test test test test test test test test test test junk",
  "abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon about",
];

describe("mnemonicSeed", () => {
  it.each(mnemonics)("is BIP39's seed of %s, stretched once", (mnemonic) => {
    const seed = mnemonicSeed(mnemonic);
    expect(Buffer.from(seed).toString("hex")).toBe(Buffer.from(mnemonicToSeedSync(mnemonic)).toString("hex"));
    expect(mnemonicSeed(mnemonic)).toBe(seed);
  });

  it("keeps mnemonics apart", () => {
    expect(mnemonicSeed(mnemonics[0] as string)).not.toEqual(mnemonicSeed(mnemonics[1] as string));
  });
});
