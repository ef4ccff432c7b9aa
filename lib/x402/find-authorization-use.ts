import { type Hex, parseAbi } from "viem";
import type { NetworkConfig } from "../chains/networks";
import { clientFor } from "../payments/watch-networks";

// EIP-3009's own record of a used authorization (Circle's USDC and the devnet's test USDC).
const eip3009Abi = parseAbi([
  "function authorizationState(address authorizer, bytes32 nonce) view returns (bool)",
  "event AuthorizationUsed(address indexed authorizer, bytes32 indexed nonce)",
]);

/**
 * Whether the token has used an authorization (its transfer happened), read on chain, and the
 * transaction that used it when it is among the network's last `maxBlockRange` blocks. Decides a
 * settlement whose answer was lost (the facilitator unreachable, or our process gone, mid-settle).
 */
export async function findAuthorizationUse(
  network: NetworkConfig,
  authorization: { asset: string; payer: string; nonce: string },
): Promise<{ used: boolean; transaction: Hex | null }> {
  const client = clientFor(network);
  const asset = authorization.asset as Hex;
  const payer = authorization.payer as Hex;
  const nonce = authorization.nonce as Hex;
  const used = await client.readContract({
    address: asset,
    abi: eip3009Abi,
    functionName: "authorizationState",
    args: [payer, nonce],
  });
  if (!used) return { used, transaction: null };
  const head = await client.getBlockNumber();
  const span = BigInt(network.maxBlockRange ?? 2000) - 1n;
  const [log] = await client.getLogs({
    address: asset,
    event: eip3009Abi[1],
    args: { authorizer: payer, nonce },
    fromBlock: head > span ? head - span : 0n,
    toBlock: head,
  });
  return { used, transaction: log?.transactionHash ?? null };
}
