import type { ServiceTransfers } from "../chains/chain-family";
import { findToken, type NetworkConfig, type TokenConfig } from "../chains/networks";
import type { Db } from "../db/client";
import { log } from "../log";
import { fromBaseUnits, toBaseUnits } from "../money/decimal";
import {
  currentServiceTransfer,
  followServiceTransfer,
  markServiceTransferReplaced,
} from "../signer/follow-service-transfer";
import { signServiceTransfer } from "../signer/sign-service-transfer";
import { checkSweepDestination, type DerivedServiceWallets } from "./check-sweep-destination";
import { type AdvanceResult, loadOpenSweeps } from "./load-open-sweeps";
import { nextSweepStatus, type SweepStatus } from "./sweep-state";
import {
  failSweep as fail,
  type Sweep,
  sweepOwner,
  transitionSweep as transition,
} from "./sweep-transactions";

// The signer's pass over a network's DIRECT sweeps (a family with service transfers: Solana). Each
// moves an invoice's confirmed value from the service's shared receiving wallet to the organization's
// wallet in force, the fee payer paying the fee: checked (checkSweepDestination), signed, recorded
// with the sweep's SUBMITTED in one database transaction, then sent and followed
// (lib/signer/sign-service-transfer.ts); signed anew only once the chain says its transfer expired.

export type DirectSweepOptions = {
  transfers: ServiceTransfers;
  mnemonic: string;
  now?: Date;
  /** The operator's pin (SERVICE_SWEEP_DESTINATIONS), as for every sweep. */
  destinations?: Record<string, string[]>;
  /** Called between recording a transfer and sending it (tests: a crash in between). */
  beforeBroadcast?: (id: string) => void | Promise<void>;
};

type Context = DirectSweepOptions & { database: Db; network: NetworkConfig; now: Date };

/** One pass over the network's open DIRECT sweeps; returns how many ended the pass in each status. */
export async function advanceDirectSweeps(
  database: Db,
  network: NetworkConfig,
  options: DirectSweepOptions,
): Promise<AdvanceResult> {
  const context: Context = { ...options, database, network, now: options.now ?? new Date() };
  return loadOpenSweeps(database, network, async (sweep) => {
    const token = findToken(network, sweep.token);
    if (!token) return fail(context, sweep, `the network no longer lists ${sweep.token}`);
    if (sweep.status === "PENDING" || sweep.status === "DEFERRED") return start(context, sweep, token);
    if (sweep.status === "SUBMITTED") return followTransfer(context, sweep, token);
    return sweep.status;
  });
}

/** Follows the sweep's transfer; an expired one (never landed, never will) is signed anew. */
async function followTransfer(context: Context, sweep: Sweep, token: TokenConfig): Promise<SweepStatus> {
  const current = currentServiceTransfer(sweep.transactions);
  if (!current) throw new Error(`sweep ${sweep.id} is SUBMITTED with no transfer of its attempt`);
  const progress = await followServiceTransfer(context.database, context.network, current);
  switch (progress.state) {
    case "confirmed":
      await transition(context, sweep, "confirm", { confirmedAt: context.now });
      return "CONFIRMED";
    case "failed":
      return fail(context, sweep, `the transfer failed on chain: ${progress.reason}`);
    case "pending":
      if (progress.rejected)
        log.warn(
          { sweepId: sweep.id, id: current.hash, rejected: progress.rejected },
          "node refused a sweep's transfer",
        );
      return "SUBMITTED";
    case "expired": {
      await context.database.$transaction(async (tx) => {
        const moved = await tx.sweep.updateMany({
          where: { id: sweep.id, status: "SUBMITTED" },
          data: {
            status: nextSweepStatus("SUBMITTED", "expire") ?? "PENDING",
            resubmissions: { increment: 1 },
          },
        });
        if (moved.count !== 1) throw new Error(`sweep ${sweep.id} moved on meanwhile`);
        await markServiceTransferReplaced(tx, current.id, context.now);
      });
      log.warn({ sweepId: sweep.id, id: current.hash }, "sweep transfer expired unseen; signing it anew");
      return start(context, { ...sweep, status: "PENDING" }, token);
    }
  }
}

/** The service's own wallets on the network (ServiceTransfers.wallet), none of which a sweep may pay. */
const derivedWallets =
  ({ transfers, network, mnemonic }: Context): DerivedServiceWallets =>
  (refundWalletIndex) => [
    { kind: "receiving wallet", address: transfers.wallet(network, mnemonic, "receiving") },
    { kind: "fee payer", address: transfers.wallet(network, mnemonic, "feePayer") },
    { kind: "refund wallet", address: transfers.wallet(network, mnemonic, "refund", refundWalletIndex) },
  ];

/** Signs, records and sends a planned (or deferred, or expired) sweep's transfer. */
async function start(context: Context, planned: Sweep, token: TokenConfig): Promise<SweepStatus> {
  const sweep = await checkSweepDestination(context, planned, context.destinations, derivedWallets(context));
  if (!sweep) return "DEFERRED";
  const { transfers, network } = context;
  const units = toBaseUnits(sweep.amount.toFixed(), token.decimals);
  const held = await transfers.balance(network, sweep.fromAddress, token);
  if (held < units)
    return fail(
      context,
      sweep,
      `the receiving wallet holds ${fromBaseUnits(held, token.decimals)} ${token.symbol}, less than the ledger's ${sweep.amount}`,
    );
  const feePayer = transfers.wallet(network, context.mnemonic, "feePayer");
  const fees = await transfers.balance(network, feePayer);
  if (fees < transfers.feeReserve) {
    const coin = transfers.feeCoin;
    const reason = `The fee payer ${feePayer} holds ${fromBaseUnits(fees, coin.decimals)} ${coin.symbol}; this sweep needs ${fromBaseUnits(transfers.feeReserve, coin.decimals)} to pay its fee.`;
    if (sweep.status !== "DEFERRED" || sweep.failureReason !== reason)
      await transition(context, sweep, "defer", { failureReason: reason });
    return "DEFERRED";
  }
  const next = nextSweepStatus(sweep.status, "start_direct");
  if (!next) throw new Error(`sweep ${sweep.id}: start_direct does not apply in ${sweep.status}`);
  const sent = await signServiceTransfer({
    database: context.database,
    network,
    mnemonic: context.mnemonic,
    request: { from: { role: "receiving" }, to: sweep.toAddress, token, units },
    now: context.now,
    beforeBroadcast: context.beforeBroadcast,
    owner: sweepOwner(sweep, next, { amountSent: sweep.amount.toFixed() }),
  });
  if (sent.state === "refused") return fail(context, sweep, `refused: ${sent.reason}`);
  return "SUBMITTED";
}
