import type { Hex } from "viem";
import { clientFor } from "../chains/evm/evm-client";
import type { NetworkConfig } from "../chains/networks";
import {
  authorizationCanceledEvent,
  authorizationUsedEvent,
  paysPayee,
  readLatestAndPending,
  type X402AuthorizationRef,
} from "./eip3009-token";

/**
 * How long before its row was written an authorization's events are looked for: a facilitator
 * may settle it when asked to verify, and our clock and the chain's differ.
 */
const beforeCreationSeconds = 600;
/** How long past its validBefore: a transfer lands only before it, by the chain's clock. */
const afterWindowSeconds = 120;

type Client = ReturnType<typeof clientFor>;

/** The first block in [low, high] whose timestamp is at least `seconds`, or `high` if none is. */
async function firstBlockFrom(client: Client, seconds: bigint, low: bigint, high: bigint): Promise<bigint> {
  let [from, to] = [low, high];
  while (from < to) {
    const middle = (from + to) / 2n;
    const block = await client.getBlock({ blockNumber: middle });
    if (block.timestamp >= seconds) to = middle;
    else from = middle + 1n;
  }
  return from;
}

type Events = { used: Hex | undefined; canceled: boolean };

/** The authorization's AuthorizationUsed transaction and whether it was canceled, in blocks [from, to]. */
async function eventsIn(
  client: Client,
  { asset, payer, nonce }: X402AuthorizationRef,
  from: bigint,
  to: bigint,
): Promise<Events> {
  const range = {
    address: asset as Hex,
    args: { authorizer: payer as Hex, nonce: nonce as Hex },
    fromBlock: from,
    toBlock: to,
  };
  const [[used], [canceled]] = await Promise.all([
    client.getLogs({ ...range, event: authorizationUsedEvent }),
    client.getLogs({ ...range, event: authorizationCanceledEvent }),
  ]);
  return { used: used?.transactionHash ?? undefined, canceled: canceled !== undefined };
}

/**
 * The events of a spent authorization: in the network's last `maxBlockRange` blocks, else in the
 * blocks of its life on chain (from before its row was written to past its validBefore, found by
 * their timestamps), `maxBlockRange` at a time. A settlement that stayed undecided longer than
 * the last blocks span (a fast chain, the chain unreadable for a while) is so still decided by its
 * events, and the search never reaches further back than the payment.
 */
async function findEvents(
  network: NetworkConfig,
  authorization: X402AuthorizationRef & { createdAt: Date; validBefore: Date },
): Promise<Events> {
  const client = clientFor(network);
  const head = await client.getBlockNumber();
  const span = BigInt(network.maxBlockRange ?? 2000);
  const recent = head >= span ? head - span + 1n : 0n;
  const found = await eventsIn(client, authorization, recent, head);
  if (found.used || found.canceled || recent === 0n) return found;
  const seconds = (date: Date) => BigInt(Math.floor(date.getTime() / 1000));
  const older = recent - 1n;
  const from = await firstBlockFrom(
    client,
    seconds(authorization.createdAt) - BigInt(beforeCreationSeconds),
    0n,
    older,
  );
  const to = await firstBlockFrom(
    client,
    seconds(authorization.validBefore) + BigInt(afterWindowSeconds),
    from,
    older,
  );
  for (let start = from; start <= to; start += span) {
    const end = start + span - 1n < to ? start + span - 1n : to;
    const events = await eventsIn(client, authorization, start, end);
    if (events.used || events.canceled) return events;
  }
  return { used: undefined, canceled: false };
}

/**
 * What the token did with an authorization, read on chain: `used` (its transfer happened and paid
 * `payTo` at least `amount`, in `transaction`), `diverted` (its nonce was used by a transfer that
 * did not: the payer signed another authorization with the same nonce, and no transfer of this
 * one can ever happen), `canceled` (the payer withdrew it: no transfer can happen), `unused`,
 * `sending` (unused in the latest block, spent in the pending one: a transaction using it waits in
 * the node's pool, whoever sent it), or `unknown` (spent, and no event of it in the latest blocks
 * nor in those of its life: spent before the payment was made, or canceled long after). Decides a settlement whose answer was lost (the
 * facilitator unreachable, or our process gone, mid-settle), refused, or not recorded by us.
 */
export async function findAuthorizationUse(
  network: NetworkConfig,
  authorization: X402AuthorizationRef & { payTo: string; amount: bigint; createdAt: Date; validBefore: Date },
): Promise<{
  state: "used" | "diverted" | "canceled" | "unused" | "sending" | "unknown";
  transaction: Hex | null;
}> {
  const client = clientFor(network);
  const { asset, payer, nonce } = authorization;
  const [spent, spending] = await readLatestAndPending(network, asset, "authorizationState", [payer, nonce]);
  if (!spent) return { state: spending ? "sending" : "unused", transaction: null };
  const { used, canceled } = await findEvents(network, authorization);
  if (used) {
    const receipt = await client.getTransactionReceipt({ hash: used });
    const paid = paysPayee(receipt.logs, authorization, authorization.payTo, authorization.amount);
    return { state: paid ? "used" : "diverted", transaction: used };
  }
  return { state: canceled ? "canceled" : "unknown", transaction: null };
}
