import type { Address, Hex, PrivateKeyAccount, PublicClient } from "viem";
import type { NetworkConfig } from "../chains/networks";
import type { Db } from "../db/client";
import type { SignedTransaction, Sweep as SweepRow } from "../generated/prisma/client";
import { log } from "../log";
import { fromBaseUnits } from "../money/decimal";
import { bumpFee, withinFeeCap } from "../signer/bump-fee";
import { nativeTransferGas } from "../signer/estimate-transfer-gas";
import { followTransactions } from "../signer/follow-transactions";
import { signTransaction, type TransactionOwner, type UnsignedTransaction } from "../signer/sign-transaction";
import { nextSweepStatus, type SweepEvent, type SweepStatus } from "./sweep-state";
import type { SweeperKeys } from "./sweeper-keys";

// A sweep's transactions and status changes, on the signing role's one implementation
// (lib/signer/): recorded with the sweep's new status before broadcast, followed through
// reorganisations, replaced with a higher fee when stuck.

export type Sweep = SweepRow & { transactions: SignedTransaction[]; invoice: { derivationIndex: number } };

export type SweepContext = {
  database: Db;
  network: NetworkConfig;
  client: PublicClient;
  keys: SweeperKeys;
  now: Date;
  stuckAfterMs: number;
  gasWallet: PrivateKeyAccount;
  beforeBroadcast?: (hash: Hex) => void | Promise<void>;
};

const smaller = (a: bigint, b: bigint) => (a < b ? a : b);

export function depositAccount(context: SweepContext, sweep: Sweep) {
  return context.keys.deposit(sweep.invoice.derivationIndex);
}

/**
 * The sweep as a transaction's owner (lib/signer/sign-transaction.ts): its move to `next`, written
 * with the transaction's record, refused when the sweep is no longer as it was read (in its
 * status, to its destination).
 */
export function sweepOwner(sweep: Sweep, next: SweepStatus, data: { amountSent?: string }): TransactionOwner {
  return {
    link: { sweepId: sweep.id },
    attempt: sweep.attempt,
    record: async (tx) => {
      const moved = await tx.sweep.updateMany({
        where: { id: sweep.id, status: sweep.status, toAddress: sweep.toAddress },
        data: { status: next, ...data, ...(next === "DEFERRED" ? {} : { failureReason: null }) },
      });
      if (moved.count !== 1) throw new Error(`sweep ${sweep.id} moved on meanwhile`);
    },
  };
}

/**
 * Signs, records (with the sweep's transition; the sweep must still be in the status it was read
 * in) and broadcasts a transaction. `replaces` is the transaction a fee bump replaces.
 */
export async function signForSweep(
  context: SweepContext,
  sweep: Sweep,
  event: SweepEvent,
  kind: "FUNDING" | "TRANSFER",
  account: PrivateKeyAccount,
  unsigned: UnsignedTransaction,
  data: { amountSent?: string } = {},
  replaces?: SignedTransaction,
) {
  const next = nextSweepStatus(sweep.status, event);
  if (!next) throw new Error(`sweep ${sweep.id}: ${event} does not apply in ${sweep.status}`);
  await signTransaction({
    database: context.database,
    network: context.network,
    client: context.client,
    account,
    kind,
    unsigned,
    now: context.now,
    replaces,
    beforeBroadcast: context.beforeBroadcast,
    owner: sweepOwner(sweep, next, data),
  });
}

/** Where a sweep's records are: what a change of status that sends nothing needs. */
export type SweepStore = Pick<SweepContext, "database" | "network">;

/** A change of status that sends nothing (the sweep must still be in the status it was read in). */
export async function transitionSweep(
  context: SweepStore,
  sweep: Sweep,
  event: SweepEvent,
  data: { failureReason?: string; confirmedAt?: Date },
) {
  const next = nextSweepStatus(sweep.status, event);
  if (!next) throw new Error(`sweep ${sweep.id}: ${event} does not apply in ${sweep.status}`);
  await context.database.sweep.updateMany({
    where: { id: sweep.id, status: sweep.status },
    data: { status: next, ...data },
  });
}

export async function failSweep(context: SweepStore, sweep: Sweep, reason: string): Promise<SweepStatus> {
  await transitionSweep(context, sweep, "fail", { failureReason: reason });
  return "FAILED";
}

/** Follows the sweep's transaction of `kind` (lib/signer/follow-transactions.ts). */
export function followSweep(context: SweepContext, sweep: Sweep, kind: "FUNDING" | "TRANSFER") {
  return followTransactions({
    database: context.database,
    client: context.client,
    sent: sweep.transactions.filter((transaction) => transaction.kind === kind),
    now: context.now,
    stuckAfterMs: context.stuckAfterMs,
    onReorg: async (tx) => {
      await tx.sweep.update({ where: { id: sweep.id }, data: { resubmissions: { increment: 1 } } });
    },
    replace: (first, current) => replace(context, sweep, kind, first, current),
    logFields: { sweepId: sweep.id },
  });
}
/** Re-signs the stuck transaction with the same nonce and a fee a quarter higher, within the cap. */
async function replace(
  context: SweepContext,
  sweep: Sweep,
  kind: "FUNDING" | "TRANSFER",
  first: SignedTransaction,
  current: SignedTransaction,
) {
  const bump = bumpFee(first, current, nativeTransferGas);
  const { gas } = bump.unsigned;
  let { value, maxFeePerGas } = bump.unsigned;
  const account =
    current.signer.toLowerCase() === context.gasWallet.address.toLowerCase()
      ? context.gasWallet
      : depositAccount(context, sweep);
  if (kind === "TRANSFER" && sweep.strategy === "NATIVE") {
    // The deposit address pays the higher fee out of the value it sends.
    value -= gas * (maxFeePerGas - bump.previousMaxFeePerGas);
  } else if (kind === "TRANSFER") {
    // The token transfer's fee comes from the top-up: never more than the address holds.
    const coin = await context.client.getBalance({ address: sweep.fromAddress as Address });
    if (maxFeePerGas * gas > coin) maxFeePerGas = coin / gas;
  }
  if (!withinFeeCap(bump, maxFeePerGas) || value < 0n) {
    log.warn({ sweepId: sweep.id, hash: current.hash }, "sweep transaction stuck at its fee cap");
    return;
  }
  await signForSweep(
    context,
    sweep,
    "replace",
    kind,
    account,
    {
      ...bump.unsigned,
      value,
      maxFeePerGas,
      maxPriorityFeePerGas: smaller(bump.unsigned.maxPriorityFeePerGas, maxFeePerGas),
    },
    kind === "TRANSFER" && sweep.strategy === "NATIVE" ? { amountSent: fromBaseUnits(value, 18) } : {},
    current,
  );
}
