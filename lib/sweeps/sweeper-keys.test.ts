import { HDKey } from "@scure/bip32";
import { mnemonicToSeedSync } from "@scure/bip39";
import { bytesToHex, type Hex } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { describe, expect, it } from "vitest";
import { sweeperKeysFromMnemonic } from "./sweeper-keys";

const mnemonic =
  "abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon about";
const keys = sweeperKeysFromMnemonic(mnemonic);
const master = HDKey.fromMasterSeed(mnemonicToSeedSync(mnemonic));
const at = (path: string) =>
  privateKeyToAccount(bytesToHex(master.derive(path).privateKey as Uint8Array) as Hex).address;

describe("sweeper keys", () => {
  // (organization index, chain id) → the path its refund wallet is derived at.
  const refundPaths: [number, number, string][] = [
    [0, 31337, "m/44'/60'/2'/0/31337"],
    [1, 31337, "m/44'/60'/2'/1/31337"],
    [7, 8453, "m/44'/60'/2'/7/8453"],
    [2, 2 ** 31 + 5, "m/44'/60'/2'/2/5"],
  ];
  it.each(refundPaths)("organization %i on chain %i refunds from %s", (index, chainId, path) => {
    expect(keys.refundWallet(index, chainId).address).toBe(at(path));
  });

  it("gives each organization its own refund wallet, apart from the gas and facilitator wallets and deposits", () => {
    const addresses = [
      keys.facilitatorWallet(31337).address,
      keys.facilitatorWallet(8453).address,
      keys.refundWallet(0, 31337).address,
      keys.refundWallet(1, 31337).address,
      keys.refundWallet(1, 8453).address,
      keys.gasWallet(31337).address,
      keys.deposit(1).address,
    ];
    expect(new Set(addresses).size).toBe(addresses.length);
    expect(keys.gasWallet(31337).address).toBe(at("m/44'/60'/1'/0/31337"));
    expect(keys.facilitatorWallet(31337).address).toBe(at("m/44'/60'/3'/0/31337"));
    expect(keys.facilitatorWallet(2 ** 31 + 5).address).toBe(at("m/44'/60'/3'/0/5"));
  });

  const badIndexes: [string, number][] = [
    ["negative", -1],
    ["fractional", 1.5],
    ["hardened", 2 ** 31],
  ];
  it.each(badIndexes)("refuses a %s organization index", (_, index) => {
    expect(() => keys.refundWallet(index, 31337)).toThrow(/not a non-hardened BIP32 index/);
  });
});
