import { mnemonicToSeedSync } from "@scure/bip39";
import { describe, expect, it } from "vitest";
import { deriveEd25519Slip10, solanaKeyPair, solanaServiceKey, solanaWalletKey } from "./solana-keys";

const hex = (bytes: Uint8Array) => Buffer.from(bytes).toString("hex");

describe("SLIP-0010 ed25519 (the specification's test vector 1)", () => {
  const seed = Buffer.from("000102030405060708090a0b0c0d0e0f", "hex");
  it.each([
    [
      [],
      "2b4be7f19ee27bbf30c667b642d5f4aa69fd169872f8fc3059c08ebae2eb19e7",
      "a4b2856bfec510abab89753fac1ac0e1112364e7d250545963f135f2a33188ed",
    ],
    [
      [0],
      "68e0fe46dfb67e368c75379acec591dad19df3cde26e63b93a8e704f1dade7a3",
      "8c8a13df77a28f3445213a0f432fde644acaa215fc72dcdf300d5efaa85d350c",
    ],
    [
      [0, 1],
      "b1d0bad404bf35da785a64ca1ac54b2617211d2777696fbffaf208f746ae84f2",
      "1932a5270f335bed617d5b935c80aedb1a35bd9fc1e31acafd5372c30f5c1187",
    ],
    [
      [0, 1, 2],
      "92a5b23c0b8a99e37d07df3fb9966917f5d06e02ddbd909c7e184371463e9fc9",
      "ae98736566d30ed0e9d2f4486a64bc95740d89c7db33f52121f8ea8f76ff0fc1",
    ],
  ])("m/%j", (path, privateKey, publicKey) => {
    const key = solanaKeyPair(deriveEd25519Slip10(seed, path));
    expect(hex(key.secretKey)).toBe(privateKey);
    expect(hex(key.publicKey)).toBe(publicKey);
  });

  it.each([[-1], [0x80000000], [1.5]])("refuses the path index %s", (index) => {
    expect(() => deriveEd25519Slip10(seed, [index])).toThrow("bad path index");
  });
});

const hardhatMnemonic = "test test test test test test test test test test test junk";

describe("Solana wallet accounts of Hardhat's test mnemonic (m/44'/501'/N'/0')", () => {
  it.each([
    [0, "oeYf6KAJkLYhBuR8CiGc6L4D4Xtfepr85fuDgA9kq96"],
    [1, "AqynRZwvVqUPRwRJXvm6odUb3t93fDjnWe3p6BeuUFxD"],
    [2, "CqMbRgMuEhQi9BUS8xP44Wk5nENm48FqJnfjEi4eNb1k"],
  ])("#%i is %s", (index, address) => {
    expect(solanaWalletKey(hardhatMnemonic, index).address).toBe(address);
  });
});

describe("service keys", () => {
  it("differ by role and index and from every wallet account", () => {
    const seen = new Set<string>();
    for (const role of ["receiving", "refund", "feePayer", "testUsdcMint"] as const) {
      for (const index of [0, 1]) seen.add(solanaServiceKey(hardhatMnemonic, role, index).address);
    }
    for (const index of [0, 1, 2]) seen.add(solanaWalletKey(hardhatMnemonic, index).address);
    expect(seen.size).toBe(11);
  });

  it("is the SLIP-0010 key at m/44'/501'/0'/role'/index'", () => {
    const seed = mnemonicToSeedSync(hardhatMnemonic);
    expect(solanaServiceKey(hardhatMnemonic, "refund", 7).secretKey).toEqual(
      deriveEd25519Slip10(seed, [44, 501, 0, 2, 7]),
    );
  });
});
