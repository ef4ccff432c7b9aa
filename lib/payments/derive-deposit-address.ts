import { mnemonicToSeedSync } from "@scure/bip39";
import { HDKey, hdKeyToAccount } from "viem/accounts";

// Every invoice gets its own deposit address, derived from one HD key (BIP32, the standard
// Ethereum path m/44'/60'/0'/0/<index>), so a transfer names its invoice without memos. Watching
// needs only the extended public key; the seed (for sweeping) can live elsewhere.

export function hdKeyFromMnemonic(mnemonic: string): HDKey {
  return HDKey.fromMasterSeed(mnemonicToSeedSync(mnemonic));
}

/** The address at `index` (an index is allocated to one invoice, once, never reused). */
export function depositAddress(root: HDKey, index: number): `0x${string}` {
  if (!Number.isInteger(index) || index < 0 || index >= 2 ** 31)
    throw new RangeError("index must be a BIP32 non-hardened index");
  return hdKeyToAccount(root, { addressIndex: index }).address;
}
