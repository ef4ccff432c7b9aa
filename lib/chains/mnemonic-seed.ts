import { mnemonicToSeedSync } from "@scure/bip39";
import { processWide } from "../process-wide";

// A BIP39 seed is 2,048 rounds of PBKDF2-HMAC-SHA512 in JavaScript (tens of milliseconds), and the
// periodic tasks derive the service's keys on every pass: each mnemonic is stretched once per process.
const seeds = processWide("mnemonic-seeds", () => new Map<string, Uint8Array>());

/** The BIP39 seed of `mnemonic` (no passphrase), computed once per process. */
export function mnemonicSeed(mnemonic: string): Uint8Array {
  let seed = seeds.get(mnemonic);
  if (!seed) {
    seed = mnemonicToSeedSync(mnemonic);
    seeds.set(mnemonic, seed);
  }
  return seed;
}
