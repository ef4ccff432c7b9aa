import { createHmac } from "node:crypto";
import { ed25519 } from "@noble/curves/ed25519.js";
import { base58 } from "@scure/base";
import { mnemonicSeed } from "../mnemonic-seed";

/** An ed25519 key pair: the 32-byte private seed, its public key and that key's base58 address. */
export type SolanaKeyPair = { secretKey: Uint8Array; publicKey: Uint8Array; address: string };

const hardened = 0x80000000;

/**
 * SLIP-0010 over ed25519 (as Phantom and Solflare derive Solana accounts): every step hardened,
 * since ed25519 has no public-key derivation. Returns the 32-byte private key at `path`.
 */
export function deriveEd25519Slip10(seed: Uint8Array, path: readonly number[]): Uint8Array {
  let node = createHmac("sha512", "ed25519 seed").update(seed).digest();
  for (const index of path) {
    if (!Number.isInteger(index) || index < 0 || index >= hardened)
      throw new Error(`bad path index ${index}`);
    const data = Buffer.alloc(37);
    node.copy(data, 1, 0, 32);
    data.writeUInt32BE(index + hardened, 33);
    node = createHmac("sha512", node.subarray(32)).update(data).digest();
  }
  return new Uint8Array(node.subarray(0, 32));
}

/** The key pair of a 32-byte ed25519 private key. */
export function solanaKeyPair(secretKey: Uint8Array): SolanaKeyPair {
  const publicKey = ed25519.getPublicKey(secretKey);
  return { secretKey, publicKey, address: base58.encode(publicKey) };
}

function keyAt(mnemonic: string, path: readonly number[]): SolanaKeyPair {
  return solanaKeyPair(deriveEd25519Slip10(mnemonicSeed(mnemonic.trim()), path));
}

/** A wallet's account `index` at m/44'/501'/index'/0', the path Phantom and Solflare use. */
export function solanaWalletKey(mnemonic: string, index: number): SolanaKeyPair {
  return keyAt(mnemonic, [44, 501, index, 0]);
}

/**
 * The service's own Solana keys. Each role has a path of its own, five levels deep under the
 * Solana coin type, so none is ever a wallet account of the same mnemonic (those are three or four
 * levels deep) and no role's key is another role's.
 */
export const solanaServiceRoles = { receiving: 1, refund: 2, feePayer: 3, testUsdcMint: 100 } as const;
export type SolanaServiceRole = keyof typeof solanaServiceRoles;

/** The service's key for `role` and `index`, at m/44'/501'/0'/role'/index'. */
export function solanaServiceKey(mnemonic: string, role: SolanaServiceRole, index = 0): SolanaKeyPair {
  return keyAt(mnemonic, [44, 501, 0, solanaServiceRoles[role], index]);
}
