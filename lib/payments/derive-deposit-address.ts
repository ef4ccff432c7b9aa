import { secp256k1 } from "@noble/curves/secp256k1.js";
import { HDKey } from "@scure/bip32";
import { mnemonicToSeedSync } from "@scure/bip39";
import { bytesToHex } from "viem";
import { publicKeyToAddress } from "viem/accounts";

// Every invoice gets its own deposit address, derived from one HD key (BIP32, the standard
// Ethereum path m/44'/60'/0'/0/<index>), so a transfer names its invoice without memos. Deriving
// the addresses needs only the account's extended public key (SERVICE_HD_XPUB), so a web tier can
// run without any private key; the mnemonic is for the devnet and for whatever signs later.

/** The account whose external chain (…/0/<index>) holds the deposit addresses. */
export const depositAccountPath = "m/44'/60'/0'";

/** The deposit chain key (m/44'/60'/0'/0) from a BIP39 mnemonic: holds private keys. */
export function depositKeyFromMnemonic(mnemonic: string): HDKey {
  return HDKey.fromMasterSeed(mnemonicToSeedSync(mnemonic)).derive(`${depositAccountPath}/0`);
}

/** The same chain key from the account's extended public key (xpub of m/44'/60'/0'): public only. */
export function depositKeyFromXpub(xpub: string): HDKey {
  return HDKey.fromExtendedKey(xpub).deriveChild(0);
}

/**
 * The address at `index` (an index is allocated to one invoice, once, never reused). Public
 * derivation only, so a mnemonic's key and its account xpub give the same addresses.
 */
export function depositAddress(chainKey: HDKey, index: number): `0x${string}` {
  if (!Number.isInteger(index) || index < 0 || index >= 2 ** 31)
    throw new RangeError("index must be a BIP32 non-hardened index");
  const compressed = chainKey.deriveChild(index).publicKey as Uint8Array;
  // An Ethereum address hashes the uncompressed key; BIP32 keeps it compressed.
  return publicKeyToAddress(bytesToHex(secp256k1.Point.fromBytes(compressed).toBytes(false)));
}
