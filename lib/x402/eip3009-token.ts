import { type Hex, type Log, parseAbi, parseEventLogs } from "viem";
import { clientFor } from "../chains/evm/evm-client";
import type { NetworkConfig } from "../chains/networks";

// EIP-3009's own record of an authorization (Circle's USDC and the devnet's test USDC): its state
// is true once used OR canceled; only the events say which, and only the transfer's Transfer log
// says whom it paid.
const eip3009Abi = parseAbi([
  "function authorizationState(address authorizer, bytes32 nonce) view returns (bool)",
  "function balanceOf(address account) view returns (uint256)",
  "event AuthorizationUsed(address indexed authorizer, bytes32 indexed nonce)",
  "event AuthorizationCanceled(address indexed authorizer, bytes32 indexed nonce)",
  "event Transfer(address indexed from, address indexed to, uint256 value)",
]);
export const [, , authorizationUsedEvent, authorizationCanceledEvent] = eip3009Abi;

/** An authorization as its X402Settlement row names it (lowercase). */
export type X402AuthorizationRef = { asset: string; payer: string; nonce: string };

const same = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();

/** Whether `logs` (a receipt's) hold the token's AuthorizationUsed(payer, nonce): this authorization's transfer. */
export function usesAuthorization(logs: Log[], { asset, payer, nonce }: X402AuthorizationRef): boolean {
  return parseEventLogs({ abi: eip3009Abi, logs, eventName: "AuthorizationUsed" }).some(
    (log) => same(log.address, asset) && same(log.args.authorizer, payer) && same(log.args.nonce, nonce),
  );
}

/**
 * Whether `logs` (a receipt's) move at least `amount` of the token from the payer to `payTo`: a
 * transaction that spends the authorization's nonce pays the payment only if it does (the payer
 * may sign a second authorization with the same nonce, to anyone, and spend it first).
 */
export function paysPayee(
  logs: Log[],
  { asset, payer }: X402AuthorizationRef,
  payTo: string,
  amount: bigint,
): boolean {
  return parseEventLogs({ abi: eip3009Abi, logs, eventName: "Transfer" }).some(
    (log) =>
      same(log.address, asset) &&
      same(log.args.from, payer) &&
      same(log.args.to, payTo) &&
      log.args.value >= amount,
  );
}

/** A 32-byte transaction hash, as a facilitator's answer should name one. */
export const isTransactionHash = (value: unknown): value is Hex =>
  typeof value === "string" && /^0x[0-9a-fA-F]{64}$/.test(value);

/**
 * A view of the token read at the latest and at the pending block: what is mined, and what a
 * transaction waiting in the node's pool would make of it.
 */
export function readLatestAndPending(
  network: NetworkConfig,
  asset: string,
  functionName: "authorizationState",
  args: readonly string[],
): Promise<unknown[]> {
  const client = clientFor(network);
  return Promise.all(
    (["latest", "pending"] as const).map((blockTag) =>
      client.readContract({ address: asset as Hex, abi: eip3009Abi, functionName, args, blockTag } as never),
    ),
  );
}

/**
 * Whether the authorization is spent and what the payer holds, both at one block (a number, or
 * the pending block): a state and a balance of one moment.
 */
export async function readPayerAt(
  network: NetworkConfig,
  { asset, payer, nonce }: X402AuthorizationRef,
  block: { blockNumber: bigint } | { blockTag: "pending" },
): Promise<{ spent: boolean; balance: bigint }> {
  const client = clientFor(network);
  const read = { address: asset as Hex, abi: eip3009Abi, ...block } as const;
  const [spent, balance] = await Promise.all([
    client.readContract({ ...read, functionName: "authorizationState", args: [payer as Hex, nonce as Hex] }),
    client.readContract({ ...read, functionName: "balanceOf", args: [payer as Hex] }),
  ]);
  return { spent, balance };
}
