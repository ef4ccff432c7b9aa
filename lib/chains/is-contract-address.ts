import type { Address, PublicClient } from "viem";

/** EIP-7702: an account's code that only delegates to a contract; the account's key still rules it. */
const delegationPrefix = "0xef0100";

/**
 * Whether `address` is a contract on chain, read at the latest block: a refund's router or bridge
 * that may not pass money back to the buyer (lib/refunds), an x402 payer whose signature is code
 * that may answer otherwise when settled (lib/x402). An account whose only code is an EIP-7702
 * delegation is a person's wallet to pay (`delegated: "wallet"`), but its signatures are its
 * delegate's answer (tokens check any account with code by ERC-1271), so a payer whose signature
 * must hold asks with `delegated: "contract"`. A node that cannot answer throws.
 */
export async function isContractAddress(
  client: PublicClient,
  address: string,
  { delegated }: { delegated: "wallet" | "contract" },
): Promise<boolean> {
  const code = await client.getCode({ address: address as Address });
  if (!code || code === "0x") return false;
  const delegation = code.length === 2 + 23 * 2 && code.toLowerCase().startsWith(delegationPrefix);
  return !delegation || delegated === "contract";
}
