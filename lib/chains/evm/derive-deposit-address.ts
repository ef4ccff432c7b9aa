import { createHmac } from "node:crypto";
import { secp256k1 } from "@noble/curves/secp256k1.js";
import { HDKey } from "@scure/bip32";
import { bytesToHex } from "viem";
import { publicKeyToAddress } from "viem/accounts";
import type { DepositKeys } from "../chain-family";
import { mnemonicSeed } from "../mnemonic-seed";

// Every invoice gets its own deposit address, derived from one HD key (BIP32, the standard
// Ethereum path m/44'/60'/0'/0/<index>), so a transfer names its invoice without memos. Deriving
// the addresses needs only the account's extended public key (SERVICE_HD_XPUB), so a web tier can
// run without any private key; the mnemonic is for the devnet and for whatever signs later.

/** The account whose external chain (…/0/<index>) holds the deposit addresses. */
export const depositAccountPath = "m/44'/60'/0'";

/** The deposit chain key (m/44'/60'/0'/0) from a BIP39 mnemonic: holds private keys. */
export function depositKeyFromMnemonic(mnemonic: string): HDKey {
  return HDKey.fromMasterSeed(mnemonicSeed(mnemonic)).derive(`${depositAccountPath}/0`);
}

/** The same chain key from the account's extended public key (xpub of m/44'/60'/0'): public only. */
export function depositKeyFromXpub(xpub: string): HDKey {
  return HDKey.fromExtendedKey(xpub).deriveChild(0);
}

const parentPoints = new WeakMap<HDKey, InstanceType<typeof secp256k1.Point>>();

/**
 * The address at `index` (an index is allocated to one invoice, once, never reused). Public
 * derivation only (BIP32 CKDpub), so a mnemonic's key and its account xpub give the same addresses.
 * Thousands are derived at once when renewals fall due, so this skips what a child HDKey computes
 * but an address doesn't need, and multiplies in variable time: the tweak comes from the public
 * key and chain code alone, so there is no secret to leak through timing. That halves the cost.
 */
export function depositAddress(chainKey: HDKey, index: number): `0x${string}` {
  if (!Number.isInteger(index) || index < 0 || index >= 2 ** 31)
    throw new RangeError("index must be a BIP32 non-hardened index");
  const { publicKey, chainCode } = chainKey;
  if (!publicKey || !chainCode) throw new Error("the deposit chain key has no public key");
  let parent = parentPoints.get(chainKey);
  if (!parent) {
    parent = secp256k1.Point.fromBytes(publicKey);
    parentPoints.set(chainKey, parent);
  }
  const data = Buffer.alloc(37);
  data.set(publicKey);
  data.writeUInt32BE(index, 33);
  const tweak = BigInt(`0x${createHmac("sha512", chainCode).update(data).digest().toString("hex", 0, 32)}`);
  const child =
    tweak > 0n && tweak < secp256k1.Point.CURVE().n
      ? parent.add(secp256k1.Point.BASE.multiplyUnsafe(tweak))
      : undefined;
  // A tweak out of range or a child at infinity (odds about 2^-127): BIP32's own rule, via scure.
  const key =
    child && !child.equals(secp256k1.Point.ZERO)
      ? child
      : secp256k1.Point.fromBytes(chainKey.deriveChild(index).publicKey as Uint8Array);
  // An Ethereum address hashes the uncompressed key.
  return publicKeyToAddress(bytesToHex(key.toBytes(false)));
}

let cached: { source: string; key: HDKey } | undefined;

/** The deposit addresses at these indexes, from the account xpub (no private key) or else the mnemonic. */
export function evmDepositAddresses(keys: DepositKeys, indexes: number[]): string[] {
  const source = keys.hdXpub ?? keys.hdMnemonic;
  if (!source) throw new Error("no deposit key: neither an xpub nor a mnemonic");
  if (cached?.source !== source)
    cached = {
      source,
      key: keys.hdXpub ? depositKeyFromXpub(keys.hdXpub) : depositKeyFromMnemonic(source),
    };
  const { key } = cached;
  return indexes.map((index) => depositAddress(key, index));
}
