import { ed25519 } from "@noble/curves/ed25519.js";
import { base58 } from "@scure/base";
import type { AddressRules } from "../chain-family";

const format = "a Solana wallet address (base58, 32 to 44 characters)";

/** Addresses that take money and give it to no one: the incinerator, and the system program's own. */
const burnAddresses = new Set([
  "1nc1nerator11111111111111111111111111111111",
  "11111111111111111111111111111111",
]);

/** The 32 bytes of a base58 address, or null when it is not one. */
export function solanaAddressBytes(value: string): Uint8Array | null {
  if (!/^[1-9A-HJ-NP-Za-km-z]{32,44}$/.test(value)) return null;
  try {
    const bytes = base58.decode(value);
    return bytes.length === 32 ? bytes : null;
  } catch {
    return null;
  }
}

/** Whether 32 bytes are a point of ed25519: a key someone can sign for, not a program-derived address. */
export function isOnCurve(bytes: Uint8Array): boolean {
  try {
    ed25519.Point.fromBytes(bytes);
    return true;
  } catch {
    return false;
  }
}

/**
 * Solana addresses: base58 of 32 bytes, case-sensitive (so the key is the address itself). A
 * person types a wallet, whose key is on the curve: a token account or another program-derived
 * address is off it and refused, since money sent to it as to a wallet would be lost (a wallet
 * pays the token account its wallet derives; an associated token account has none).
 */
export const solanaAddresses: AddressRules = {
  format,
  input: { placeholder: "base58 wallet address", pattern: "\\s*[1-9A-HJ-NP-Za-km-z]{32,44}\\s*" },
  parse(value) {
    const trimmed = value.trim();
    const bytes = solanaAddressBytes(trimmed);
    if (!bytes) return { problem: "format", message: `must be ${format}` };
    if (!isOnCurve(bytes))
      return {
        problem: "format",
        message: "must be a wallet address, not a token account or another program-derived address",
      };
    return { address: trimmed };
  },
  key: (address) => address,
  isBurn: (address) => burnAddresses.has(address),
};
