import { getAddress, isAddress } from "viem";
import { z } from "zod";

/** An EVM address as money is sent to it: any case, but mixed case must carry a valid checksum. */
export const checksumAddressField = z
  .string({ error: "must be an EVM address (0x followed by 40 hex digits)" })
  .trim()
  .refine((value) => isAddress(value, { strict: false }), {
    error: "must be an EVM address (0x followed by 40 hex digits)",
  })
  // Mixed case carries an EIP-55 checksum; a typo in it must not send money elsewhere.
  .refine((value) => isAddress(value), {
    error: "has a wrong EIP-55 checksum (check the mixed-case letters)",
  })
  .transform((value) => getAddress(value));
