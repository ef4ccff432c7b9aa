import { type Address, erc20Abi, type PublicClient } from "viem";

/**
 * What `holder` holds on chain in base units: of the ERC-20 token at `token`, or of the network's
 * coin when there is no contract (a token configured without `address`).
 */
export function readEvmBalance(
  client: Pick<PublicClient, "readContract" | "getBalance">,
  holder: Address,
  token: string | undefined,
): Promise<bigint> {
  return token
    ? client.readContract({
        address: token as Address,
        abi: erc20Abi,
        functionName: "balanceOf",
        args: [holder],
      })
    : client.getBalance({ address: holder });
}
