import { type Hex, TransactionReceiptNotFoundError } from "viem";
import { clientFor } from "../chains/evm/evm-client";
import type { NetworkConfig } from "../chains/networks";
import type { X402Settlement } from "../generated/prisma/client";
import { log } from "../log";
import { readPayerAt } from "./eip3009-token";
import { findAuthorizationUse } from "./find-authorization-use";
import { findSettlementGas } from "./find-settlement-gas";

/**
 * How long past its validBefore (by the chain's latest block time) an unused authorization is
 * taken as never landing: a margin for the latest block being replaced.
 */
export const x402ClosedMarginSeconds = 120;

type Row = Pick<
  X402Settlement,
  "id" | "asset" | "payer" | "nonce" | "payTo" | "amount" | "validBefore" | "createdAt"
>;

type X402ChainDecision = {
  status: "SETTLED" | "FAILED" | "SETTLING";
  transaction: string | null;
  errorReason:
    | "authorization_canceled"
    | "authorization_used_elsewhere"
    | "insufficient_funds"
    | "settlement_expired"
    | null;
  gasUsd: string | undefined;
  sending?: true;
};

/**
 * Whether the authorization is unused and the payer holds less than `amount`, both at the latest
 * block (pinned by its number) and in the pending one. Its state and the balance are read at one
 * block: read apart, a transfer of it landing in between would look like a payer short of its value.
 */
async function payerShort(
  network: NetworkConfig,
  row: Row,
  amount: bigint,
  latest: bigint,
): Promise<boolean> {
  const reads = await Promise.all([
    readPayerAt(network, row, { blockNumber: latest }),
    readPayerAt(network, row, { blockTag: "pending" }),
  ]);
  return reads.every(({ spent, balance }) => !spent && balance < amount);
}

/**
 * What the chain says of a settlement: `SETTLED` when the token used its authorization in a
 * transfer that paid the row's payTo its amount (in `transaction`, the chain's, whatever a
 * facilitator named); `FAILED` with `authorization_canceled` when the payer canceled it, with
 * `authorization_used_elsewhere` when its nonce was spent by a transfer that did not pay us (no
 * transfer of it can happen either way), with `settlement_expired` when it is unused and the
 * chain's latest block is past its validBefore + `x402ClosedMarginSeconds` (it can never land),
 * or, for a settlement the facilitator `refused`, with `insufficient_funds` when it is unused and
 * the payer holds less than its value in the latest and the pending block, with no transaction
 * of ours still unmined (its transfer cannot succeed); else `SETTLING` (a transaction may be
 * pending, the authorization may still be presented, or it is spent and its event not found).
 * `sending`: a transaction using it waits in the node's pool (the pending block spends it), so
 * none is to be sent. `gasUsd`: what the transfer, or `sent` (the facilitator's transaction),
 * cost our facilitator wallet once mined, reverted too (`findSettlementGas`, `wallets`).
 * Undefined when the chain cannot be read now: nothing is decided then.
 */
export async function decideX402Settlement(
  network: NetworkConfig,
  row: Row,
  options: { sent: string | null; wallets: string[]; now: Date; refused?: boolean },
): Promise<X402ChainDecision | undefined> {
  const { sent, wallets, now } = options;
  const client = clientFor(network);
  const amount = BigInt(row.amount.toFixed(0));
  try {
    const [use, latest] = await Promise.all([
      findAuthorizationUse(network, { ...row, amount }),
      client.getBlock({ blockTag: "latest" }),
    ]);
    const receipt = (hash: string | null) =>
      hash
        ? client.getTransactionReceipt({ hash: hash as Hex }).catch((error) => {
            if (error instanceof TransactionReceiptNotFoundError) return undefined;
            throw error;
          })
        : undefined;
    const mined = await receipt(sent);
    // The gas of what was sent, else of the transfer itself (a facilitator may name none, or a wrong one).
    const paid = mined ?? (await receipt(use.transaction));
    const gas = paid ? await findSettlementGas(network, paid, row, wallets, now) : undefined;
    const gasUsd = gas ? gas.toString() : undefined;
    const kept = { transaction: sent, gasUsd };
    // Settled only with the transfer's own transaction: a canceled or diverted authorization is spent too.
    if (use.state === "used")
      return { status: "SETTLED", transaction: use.transaction, errorReason: null, gasUsd };
    if (use.state === "canceled") return { status: "FAILED", ...kept, errorReason: "authorization_canceled" };
    if (use.state === "diverted")
      return { status: "FAILED", ...kept, errorReason: "authorization_used_elsewhere" };
    if (use.state === "unknown") {
      log.warn({ settlementId: row.id }, "x402 authorization spent, its event not found");
      return { status: "SETTLING", ...kept, errorReason: null };
    }
    if (use.state === "sending") return { status: "SETTLING", ...kept, errorReason: null, sending: true };
    const closedAt = row.validBefore.getTime() + x402ClosedMarginSeconds * 1000;
    if (Number(latest.timestamp) * 1000 > closedAt)
      return { status: "FAILED", ...kept, errorReason: "settlement_expired" };
    // A transaction of ours still unmined could land once the payer is paid: only a mined one, or none.
    if (options.refused && (!sent || mined) && (await payerShort(network, row, amount, latest.number)))
      return { status: "FAILED", ...kept, errorReason: "insufficient_funds" };
    return { status: "SETTLING", ...kept, errorReason: null };
  } catch (error) {
    log.warn({ err: error, settlementId: row.id }, "x402 settlement state unreadable");
    return undefined;
  }
}
