import { getAddress, isAddress, zeroAddress } from "viem";
import type { AddressRules } from "../chain-family";

const format = "an EVM address (0x followed by 40 hex digits)";

/** EVM addresses: 0x and 40 hex digits, any case, but mixed case must carry a valid EIP-55 checksum. */
export const evmAddresses: AddressRules = {
  format,
  input: { placeholder: "0x…", pattern: "\\s*0x[0-9a-fA-F]{40}\\s*" },
  parse(value) {
    const trimmed = value.trim();
    if (!isAddress(trimmed, { strict: false })) return { problem: "format", message: `must be ${format}` };
    // A typo in a mixed-case address must not send money elsewhere.
    if (!isAddress(trimmed))
      return { problem: "checksum", message: "has a wrong EIP-55 checksum (check the mixed-case letters)" };
    return { address: getAddress(trimmed) };
  },
  key: (address) => address.toLowerCase(),
  isBurn: (address) => address.toLowerCase() === zeroAddress,
};
