import { type Hex, TransactionReceiptNotFoundError } from "viem";
import { clientFor } from "../chains/evm/evm-client";
import type { NetworkConfig } from "../chains/networks";
import type { X402Settlement } from "../generated/prisma/client";
import { log } from "../log";
import { findAuthorizationUse } from "./find-authorization-use";
import { settledGasUsd } from "./x402-gas";

/**
 * How long past its validBefore (by the chain's latest block time) an unused authorization is
 * taken as never landing: a margin for the latest block being replaced.
 */
export const x402ClosedMarginSeconds = 120;

/**
 * What the chain says of a settlement: `SETTLED` when the token used its authorization (the
 * transfer happened, in `transaction`); `FAILED` with `authorization_canceled` when the payer
 * canceled it (no transfer can happen), or with `settlement_expired` when it is unused and the
 * chain's latest block is past its validBefore + `x402ClosedMarginSeconds` (it can never land);
 * else `SETTLING` (a transaction may be pending, the authorization may still be presented, or it
 * is spent and we cannot tell how). `sending`: a transaction using it waits in the node's pool
 * (the pending block spends it), so none is to be sent. `gasUsd`: what `sent` (the facilitator's
 * transaction for it) cost once mined, reverted too. Undefined when the chain cannot be read now:
 * nothing is decided then.
 */
export async function decideX402Settlement(
  network: NetworkConfig,
  row: Pick<X402Settlement, "id" | "asset" | "payer" | "nonce" | "validBefore">,
  sent: string | null,
  now = new Date(),
): Promise<
  | {
      status: "SETTLED" | "FAILED" | "SETTLING";
      transaction: string | null;
      errorReason: "authorization_canceled" | "settlement_expired" | null;
      gasUsd: string | undefined;
      sending?: true;
    }
  | undefined
> {
  const client = clientFor(network);
  try {
    const [use, mined, latest] = await Promise.all([
      findAuthorizationUse(network, row),
      sent
        ? client.getTransactionReceipt({ hash: sent as Hex }).catch((error) => {
            if (error instanceof TransactionReceiptNotFoundError) return undefined;
            throw error;
          })
        : undefined,
      client.getBlock({ blockTag: "latest" }),
    ]);
    const gas = mined && (await settledGasUsd(network, mined.transactionHash, now));
    const gasUsd = gas ? gas.toString() : undefined;
    // Settled only with the transfer's own transaction: a canceled authorization is spent too.
    if (use.state === "used")
      return { status: "SETTLED", transaction: use.transaction, errorReason: null, gasUsd };
    if (use.state === "canceled")
      return { status: "FAILED", transaction: sent, errorReason: "authorization_canceled", gasUsd };
    if (use.state === "unknown") {
      log.warn({ settlementId: row.id }, "x402 authorization spent, its event out of range");
      return { status: "SETTLING", transaction: sent, errorReason: null, gasUsd };
    }
    if (use.state === "sending")
      return { status: "SETTLING", transaction: sent, errorReason: null, gasUsd, sending: true };
    const closedAt = row.validBefore.getTime() + x402ClosedMarginSeconds * 1000;
    const closed = Number(latest.timestamp) * 1000 > closedAt;
    return closed
      ? { status: "FAILED", transaction: sent, errorReason: "settlement_expired", gasUsd }
      : { status: "SETTLING", transaction: sent, errorReason: null, gasUsd };
  } catch (error) {
    log.warn({ err: error, settlementId: row.id }, "x402 settlement state unreadable");
    return undefined;
  }
}
