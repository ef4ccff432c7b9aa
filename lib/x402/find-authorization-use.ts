import { type Hex, parseAbi } from "viem";
import { clientFor } from "../chains/evm/evm-client";
import type { NetworkConfig } from "../chains/networks";

// EIP-3009's own record of an authorization (Circle's USDC and the devnet's test USDC): its state
// is true once used OR canceled; only the event says which.
const eip3009Abi = parseAbi([
  "function authorizationState(address authorizer, bytes32 nonce) view returns (bool)",
  "event AuthorizationUsed(address indexed authorizer, bytes32 indexed nonce)",
  "event AuthorizationCanceled(address indexed authorizer, bytes32 indexed nonce)",
]);

/**
 * What the token did with an authorization, read on chain: `used` (its transfer happened, in
 * `transaction`), `canceled` (the payer withdrew it: no transfer can happen), `unused`,
 * `sending` (unused in the latest block, spent in the pending one: a transaction using it waits in
 * the node's pool, whoever sent it), or `unknown` (spent, but its event is older than the
 * network's last `maxBlockRange` blocks). Decides a settlement whose answer was lost (the
 * facilitator unreachable, or our process gone, mid-settle) or refused.
 */
export async function findAuthorizationUse(
  network: NetworkConfig,
  authorization: { asset: string; payer: string; nonce: string },
): Promise<{ state: "used" | "canceled" | "unused" | "sending" | "unknown"; transaction: Hex | null }> {
  const client = clientFor(network);
  const asset = authorization.asset as Hex;
  const payer = authorization.payer as Hex;
  const nonce = authorization.nonce as Hex;
  const spentAt = (blockTag: "latest" | "pending") =>
    client.readContract({
      address: asset,
      abi: eip3009Abi,
      functionName: "authorizationState",
      args: [payer, nonce],
      blockTag,
    });
  const [spent, spending] = await Promise.all([spentAt("latest"), spentAt("pending")]);
  if (!spent) return { state: spending ? "sending" : "unused", transaction: null };
  const head = await client.getBlockNumber();
  const span = BigInt(network.maxBlockRange ?? 2000) - 1n;
  const range = {
    address: asset,
    args: { authorizer: payer, nonce },
    fromBlock: head > span ? head - span : 0n,
    toBlock: head,
  };
  const [[used], [canceled]] = await Promise.all([
    client.getLogs({ ...range, event: eip3009Abi[1] }),
    client.getLogs({ ...range, event: eip3009Abi[2] }),
  ]);
  if (used) return { state: "used", transaction: used.transactionHash };
  return { state: canceled ? "canceled" : "unknown", transaction: null };
}
