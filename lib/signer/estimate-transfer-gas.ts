import { type Address, erc20Abi, type PublicClient } from "viem";

/** Gas of a native transfer, and an upper estimate of an ERC-20 transfer to a fresh holder. */
export const nativeTransferGas = 21_000n;
export const tokenTransferGas = 65_000n;

/** The gas limit of an ERC-20 transfer from `from`: the node's estimate and a fifth more. */
export async function estimateTransferGas(
  client: PublicClient,
  transfer: { token: Address; from: Address; to: Address; amount: bigint },
) {
  const estimate = await client.estimateContractGas({
    account: transfer.from,
    address: transfer.token,
    abi: erc20Abi,
    functionName: "transfer",
    args: [transfer.to, transfer.amount],
  });
  // A fifth more: the estimate is for the chain as it is now.
  return (estimate * 6n) / 5n;
}
