import {
  type Address,
  encodeFunctionData,
  erc20Abi,
  type Hex,
  keccak256,
  type PrivateKeyAccount,
  type PublicClient,
  parseTransaction,
} from "viem";
import { findToken, type NetworkConfig, type TokenConfig } from "../chains/networks";
import type { Db } from "../db/client";
import type { SignedTransaction, Sweep as SweepRow } from "../generated/prisma/client";
import { newId } from "../ids";
import { log } from "../log";
import { metrics } from "../metrics/metrics";
import { fromBaseUnits, toBaseUnits } from "../money/decimal";
import { allocateNonce } from "./allocate-nonce";
import { nativeTransferGas } from "./dust-threshold";
import { nextSweepStatus, openSweepStatuses, type SweepEvent, type SweepStatus } from "./sweep-state";
import type { SweeperKeys } from "./sweeper-keys";

// The sweeper's pass over a network's open sweeps. Every transaction is signed, and recorded with
// its raw bytes and the sweep's new status in one database transaction, BEFORE it is broadcast:
// after a crash at any point the next pass finds the transaction by its hash, and re-sends those
// same bytes if the node never saw them, so no sweep ever sends twice. Replacements reuse the
// nonce, so at most one of them can be mined.

/** A replacement pays this much more per gas (nodes require at least 10%). */
const feeBumpPercent = 125n;
/** A transaction's fee is never bumped past this multiple of its first fee. */
export const feeCapMultiple = 4n;
/** The gas top-up covers the transfer at this multiple of the fee, headroom for one bump. */
const topUpFeeMultiple = 2n;
/** Open sweeps handled per pass. */
const sweepsPerPass = 200;

export type AdvanceOptions = {
  keys: SweeperKeys;
  now?: Date;
  /** A transaction still unmined after this long is replaced with a higher fee. */
  stuckAfterMs?: number;
  /**
   * The operator's pin (SERVICE_SWEEP_DESTINATIONS): per network, the only addresses a sweep may
   * pay. Absent: the wallet in force is the only check.
   */
  destinations?: Record<string, string[]>;
  /** Called between recording a transaction and broadcasting it (tests: a crash in between). */
  beforeBroadcast?: (hash: Hex) => void | Promise<void>;
};

type Sweep = SweepRow & { transactions: SignedTransaction[]; invoice: { derivationIndex: number } };

type Context = {
  database: Db;
  network: NetworkConfig;
  client: PublicClient;
  options: AdvanceOptions;
  now: Date;
  stuckAfterMs: number;
  gasWallet: PrivateKeyAccount;
};

type Unsigned = {
  to: Address;
  value: bigint;
  data?: Hex;
  gas: bigint;
  maxFeePerGas: bigint;
  maxPriorityFeePerGas: bigint;
};

const smaller = (a: bigint, b: bigint) => (a < b ? a : b);

export type AdvanceResult = Record<SweepStatus, number>;

/** One pass over the network's open sweeps; returns how many ended the pass in each status. */
export async function advanceSweeps(
  database: Db,
  network: NetworkConfig,
  client: PublicClient,
  options: AdvanceOptions,
): Promise<AdvanceResult> {
  const context: Context = {
    database,
    network,
    client,
    options,
    now: options.now ?? new Date(),
    stuckAfterMs: options.stuckAfterMs ?? Math.max(3 * (network.blockTimeMs ?? 12_000), 30_000),
    gasWallet: options.keys.gasWallet(network.chainId),
  };
  const sweeps = await database.sweep.findMany({
    where: { network: network.id, status: { in: [...openSweepStatuses] } },
    include: {
      transactions: { orderBy: { createdAt: "asc" } },
      invoice: { select: { derivationIndex: true } },
    },
    orderBy: { createdAt: "asc" },
    take: sweepsPerPass,
  });
  for (const sweep of sweeps) {
    // A retried sweep follows only its own attempt: an earlier attempt's reverted transfer or
    // mined top-up says nothing about this one.
    sweep.transactions = sweep.transactions.filter((transaction) => transaction.attempt === sweep.attempt);
  }
  const result: AdvanceResult = {
    PENDING: 0,
    FUNDING: 0,
    SUBMITTED: 0,
    CONFIRMED: 0,
    FAILED: 0,
    DEFERRED: 0,
  };
  for (const sweep of sweeps) {
    try {
      result[await advanceSweep(context, sweep)]++;
    } catch (error) {
      // A node hiccup leaves the sweep where it is; the next pass continues from the records.
      log.warn({ err: error, sweepId: sweep.id }, "sweep pass interrupted");
      result[sweep.status]++;
    }
  }
  return result;
}

async function advanceSweep(context: Context, sweep: Sweep): Promise<SweepStatus> {
  const token = findToken(context.network, sweep.token);
  if (!token) return fail(context, sweep, `the network no longer lists ${sweep.token}`);
  switch (sweep.status) {
    case "PENDING":
    case "DEFERRED":
      return start(context, sweep, token);
    case "FUNDING": {
      const funding = await follow(context, sweep, "FUNDING");
      if (funding === "reverted") return fail(context, sweep, "the gas top-up reverted");
      if (funding === "waiting") return "FUNDING";
      return sendTokenTransfer(context, sweep, token);
    }
    case "SUBMITTED": {
      const transfer = await follow(context, sweep, "TRANSFER");
      if (transfer === "reverted") return fail(context, sweep, "the transfer reverted");
      if (transfer === "waiting") return "SUBMITTED";
      const head = await context.client.getBlockNumber();
      if (head - transfer.blockNumber + 1n < BigInt(context.network.confirmations)) return "SUBMITTED";
      await transition(context, sweep, "confirm", {
        confirmedAt: context.now,
      });
      return "CONFIRMED";
    }
    default:
      return sweep.status;
  }
}

/** Starts a planned (or deferred) sweep: the native transfer, or the ERC-20 sweep's gas top-up. */
async function start(context: Context, planned: Sweep, token: TokenConfig): Promise<SweepStatus> {
  const sweep = await checkDestination(context, planned);
  if (!sweep) return "DEFERRED";
  const { client } = context;
  const from = sweep.fromAddress as Address;
  const amount = toBaseUnits(sweep.amount.toFixed(), token.decimals);
  const fees = await client.estimateFeesPerGas();
  if (!token.address) {
    const balance = await client.getBalance({ address: from });
    if (balance < amount)
      return fail(
        context,
        sweep,
        `the deposit address holds ${fromBaseUnits(balance, 18)}, less than the ledger's ${sweep.amount}`,
      );
    const value = amount - nativeTransferGas * fees.maxFeePerGas;
    if (value <= 0n) return fail(context, sweep, "the value is less than the fee of moving it");
    await sign(
      context,
      sweep,
      "start_native",
      "TRANSFER",
      depositAccount(context, sweep),
      {
        to: sweep.toAddress as Address,
        value,
        gas: nativeTransferGas,
        ...fees,
      },
      { amountSent: fromBaseUnits(value, token.decimals) },
    );
    return "SUBMITTED";
  }

  const held = await client.readContract({
    address: token.address as Address,
    abi: erc20Abi,
    functionName: "balanceOf",
    args: [from],
  });
  if (held < amount)
    return fail(
      context,
      sweep,
      `the deposit address holds ${fromBaseUnits(held, token.decimals)} ${token.symbol}, less than the ledger's ${sweep.amount}`,
    );
  const gas = await tokenTransferGasLimit(context, sweep, token, amount);
  const coin = await client.getBalance({ address: from });
  const need = gas * fees.maxFeePerGas * topUpFeeMultiple - coin;
  if (need <= 0n) {
    // Already holds enough coin for its fee (an earlier top-up's change): no top-up needed.
    await transition(context, sweep, "start_funding", {});
    return sendTokenTransfer(context, { ...sweep, status: "FUNDING" }, token);
  }
  const gasBalance = await client.getBalance({ address: context.gasWallet.address });
  const needed = need + nativeTransferGas * fees.maxFeePerGas;
  if (gasBalance < needed) {
    const reason = `The gas wallet ${context.gasWallet.address} holds ${fromBaseUnits(gasBalance, 18)}; this sweep needs ${fromBaseUnits(needed, 18)} to pay its fee.`;
    await transition(context, sweep, "defer", { failureReason: reason });
    return "DEFERRED";
  }
  await sign(context, sweep, "start_funding", "FUNDING", context.gasWallet, {
    to: from,
    value: need,
    gas: nativeTransferGas,
    ...fees,
  });
  return "FUNDING";
}

/** The ERC-20 transfer from the (funded) deposit address to the settlement wallet. */
async function sendTokenTransfer(context: Context, funded: Sweep, token: TokenConfig): Promise<SweepStatus> {
  const sweep = await checkDestination(context, funded);
  if (!sweep) return "DEFERRED";
  const amount = toBaseUnits(sweep.amount.toFixed(), token.decimals);
  const gas = await tokenTransferGasLimit(context, sweep, token, amount);
  const fees = await context.client.estimateFeesPerGas();
  const coin = await context.client.getBalance({ address: sweep.fromAddress as Address });
  // Pays no more per gas than the top-up provided (fees may have risen since it was sent).
  const maxFeePerGas = fees.maxFeePerGas * gas <= coin ? fees.maxFeePerGas : coin / gas;
  await sign(
    context,
    sweep,
    "funded",
    "TRANSFER",
    depositAccount(context, sweep),
    {
      to: token.address as Address,
      value: 0n,
      data: encodeFunctionData({
        abi: erc20Abi,
        functionName: "transfer",
        args: [sweep.toAddress as Address, amount],
      }),
      gas,
      maxFeePerGas,
      maxPriorityFeePerGas: smaller(fees.maxPriorityFeePerGas, maxFeePerGas),
    },
    { amountSent: sweep.amount.toFixed() },
  );
  return "SUBMITTED";
}

/**
 * The signer's own check, made right before it signs a transfer: the destination must be the
 * organization's wallet in force for the network, read from the database now, and within the
 * operator's pin when there is one. A sweep planned before a change that has since taken effect
 * (applied after the sweep was planned) is re-targeted to the wallet now in force: that change
 * was confirmed and waited out its delay, and the old wallet is exactly what it replaced. Any
 * other destination is refused: the sweep is deferred with the reason, an alert-level log line
 * and a metric, and nothing is sent. Returns the sweep to sign, or null when deferred.
 */
async function checkDestination(context: Context, sweep: Sweep): Promise<Sweep | null> {
  const { database, network } = context;
  const inForce = await database.settlementWallet.findUnique({
    where: { organizationId_network: { organizationId: sweep.organizationId, network: network.id } },
  });
  const same = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();
  let target = sweep;
  if (inForce && !same(inForce.address, sweep.toAddress)) {
    const change = await database.settlementChange.findFirst({
      where: {
        organizationId: sweep.organizationId,
        network: network.id,
        status: "APPLIED",
        address: inForce.address,
        updatedAt: { gt: sweep.createdAt },
      },
    });
    if (change) {
      const moved = await database.sweep.updateMany({
        where: {
          id: sweep.id,
          organizationId: sweep.organizationId,
          status: sweep.status,
          toAddress: sweep.toAddress,
        },
        data: { toAddress: inForce.address },
      });
      if (moved.count !== 1) throw new Error(`sweep ${sweep.id} moved on meanwhile`);
      log.warn(
        { sweepId: sweep.id, from: sweep.toAddress, to: inForce.address, settlementChangeId: change.id },
        "sweep re-targeted to the settlement wallet now in force",
      );
      target = { ...sweep, toAddress: inForce.address };
    }
  }
  const pinned = context.options.destinations;
  const refusal = !inForce
    ? ["no_wallet_in_force", `${network.id} has no settlement wallet in force for this organization.`]
    : !same(inForce.address, target.toAddress)
      ? [
          "destination_not_in_force",
          `Refused to pay ${target.toAddress}: the settlement wallet in force on ${network.id} is ${inForce.address}.`,
        ]
      : pinned && !(pinned[network.id] ?? []).some((address) => same(address, target.toAddress))
        ? [
            "destination_not_pinned",
            `Refused to pay ${target.toAddress}: it is not among the operator's SERVICE_SWEEP_DESTINATIONS for ${network.id}.`,
          ]
        : null;
  if (!refusal) return target;
  const [reason, message] = refusal;
  if (target.status !== "DEFERRED" || target.failureReason !== message) {
    await transition(context, target, "defer", { failureReason: message });
    metrics().sweepsDeferred.inc({ reason });
    log.error(
      { alert: true, reason, sweepId: target.id, organizationId: target.organizationId, network: network.id },
      `sweep refused: ${message}`,
    );
  }
  return null;
}

async function tokenTransferGasLimit(context: Context, sweep: Sweep, token: TokenConfig, amount: bigint) {
  const estimate = await context.client.estimateContractGas({
    account: sweep.fromAddress as Address,
    address: token.address as Address,
    abi: erc20Abi,
    functionName: "transfer",
    args: [sweep.toAddress as Address, amount],
  });
  // A fifth more: the estimate is for the chain as it is now.
  return (estimate * 6n) / 5n;
}

function depositAccount(context: Context, sweep: Sweep) {
  return context.options.keys.deposit(sweep.invoice.derivationIndex);
}

/**
 * Signs a transaction with a nonce from the database, records it and the sweep's transition in
 * one database transaction (the sweep must still be in the status it was read in), then
 * broadcasts it. `replaces` is the transaction a fee bump replaces (same nonce).
 */
async function sign(
  context: Context,
  sweep: Sweep,
  event: SweepEvent,
  kind: "FUNDING" | "TRANSFER",
  account: PrivateKeyAccount,
  unsigned: Unsigned,
  data: { amountSent?: string } = {},
  replaces?: SignedTransaction,
) {
  const { database, network, client } = context;
  const chainCount = replaces
    ? 0
    : await client.getTransactionCount({ address: account.address, blockTag: "pending" });
  const next = nextSweepStatus(sweep.status, event);
  if (!next) throw new Error(`sweep ${sweep.id}: ${event} does not apply in ${sweep.status}`);
  const hash = await database.$transaction(async (tx) => {
    const nonce = replaces
      ? replaces.nonce
      : await allocateNonce(tx, network.id, account.address, chainCount);
    const raw = await account.signTransaction({
      ...unsigned,
      nonce,
      chainId: network.chainId,
      type: "eip1559",
    });
    const hash = keccak256(raw);
    const moved = await tx.sweep.updateMany({
      where: { id: sweep.id, status: sweep.status },
      data: {
        status: next,
        ...data,
        ...(event === "reorg" ? { resubmissions: { increment: 1 } } : {}),
        ...(next === "DEFERRED" ? {} : { failureReason: null }),
      },
    });
    if (moved.count !== 1) throw new Error(`sweep ${sweep.id} moved on meanwhile`);
    if (replaces)
      await tx.signedTransaction.update({ where: { id: replaces.id }, data: { replacedAt: context.now } });
    await tx.signedTransaction.create({
      data: {
        id: newId("signedTransaction"),
        sweepId: sweep.id,
        attempt: sweep.attempt,
        kind,
        signer: account.address,
        nonce,
        hash,
        raw,
        maxFeePerGas: unsigned.maxFeePerGas.toString(),
        createdAt: context.now,
      },
    });
    return hash;
  });
  await context.options.beforeBroadcast?.(hash);
  const raw = (await database.signedTransaction.findUniqueOrThrow({ where: { hash } })).raw;
  await broadcast(client, raw as Hex);
}

/** Sends signed bytes; a node that has them already, or has mined them, is not an error. */
async function broadcast(client: PublicClient, raw: Hex) {
  try {
    await client.sendRawTransaction({ serializedTransaction: raw });
  } catch (error) {
    const message = String((error as Error).message).toLowerCase();
    if (
      /already known|known transaction|nonce too low|already imported|nonce has already been used/.test(
        message,
      )
    )
      return;
    throw error;
  }
}

async function transition(
  context: Context,
  sweep: Sweep,
  event: SweepEvent,
  data: { failureReason?: string; confirmedAt?: Date },
) {
  const next = nextSweepStatus(sweep.status, event);
  if (!next) throw new Error(`sweep ${sweep.id}: ${event} does not apply in ${sweep.status}`);
  await context.database.sweep.updateMany({
    where: { id: sweep.id, status: sweep.status },
    data: {
      status: next,
      ...data,
      ...(event === "reorg" ? { resubmissions: { increment: 1 } } : {}),
    },
  });
}

async function fail(context: Context, sweep: Sweep, reason: string): Promise<SweepStatus> {
  await transition(context, sweep, "fail", { failureReason: reason });
  return "FAILED";
}

/**
 * Follows the sweep's transaction of `kind` (the current one and those it replaced, any of which
 * may be the one mined). Mined: records its block and gas. Not mined: a transaction whose block
 * left the chain is broadcast again (counted as a resubmission); one the node lost is re-sent; one
 * pending past stuckAfterMs is replaced with a higher fee, within the cap.
 */
async function follow(
  context: Context,
  sweep: Sweep,
  kind: "FUNDING" | "TRANSFER",
): Promise<"waiting" | "reverted" | { blockNumber: bigint }> {
  const { client, database } = context;
  const sent = sweep.transactions.filter((transaction) => transaction.kind === kind);
  const current = sent.find((transaction) => !transaction.replacedAt);
  if (!current) return { blockNumber: 0n };
  for (const transaction of [...sent].reverse()) {
    const receipt = await client.getTransactionReceipt({ hash: transaction.hash as Hex }).catch(() => null);
    if (!receipt) continue;
    if (transaction.blockHash !== receipt.blockHash)
      await database.signedTransaction.update({
        where: { id: transaction.id },
        data: {
          blockNumber: receipt.blockNumber,
          blockHash: receipt.blockHash,
          gasUsed: receipt.gasUsed.toString(),
        },
      });
    return receipt.status === "success" ? { blockNumber: receipt.blockNumber } : "reverted";
  }

  const reorged = sent.filter((transaction) => transaction.blockHash);
  if (reorged.length > 0) {
    // Its block left the chain: the same bytes go out again (same nonce, so still at most once).
    await database.$transaction(async (tx) => {
      await tx.signedTransaction.updateMany({
        where: { id: { in: reorged.map((transaction) => transaction.id) } },
        data: { blockNumber: null, blockHash: null, gasUsed: null },
      });
      await tx.sweep.update({ where: { id: sweep.id }, data: { resubmissions: { increment: 1 } } });
    });
    log.warn(
      { sweepId: sweep.id, hash: current.hash },
      "sweep transaction reorganised away; broadcasting it again",
    );
    await broadcast(client, current.raw as Hex);
    return "waiting";
  }

  const known = await client.getTransaction({ hash: current.hash as Hex }).catch(() => null);
  if (!known) {
    await broadcast(client, current.raw as Hex);
    return "waiting";
  }
  if (context.now.getTime() - current.createdAt.getTime() < context.stuckAfterMs) return "waiting";
  await replace(context, sweep, kind, sent[0], current);
  return "waiting";
}

/** Re-signs the stuck transaction with the same nonce and a fee a quarter higher, within the cap. */
async function replace(
  context: Context,
  sweep: Sweep,
  kind: "FUNDING" | "TRANSFER",
  first: SignedTransaction,
  current: SignedTransaction,
) {
  const parsed = parseTransaction(current.raw as Hex);
  const gas = parsed.gas ?? nativeTransferGas;
  const oldMax = parsed.maxFeePerGas ?? 0n;
  const cap = BigInt(first.maxFeePerGas.toFixed()) * feeCapMultiple;
  let maxFeePerGas = (oldMax * feeBumpPercent) / 100n;
  const oldPriority = parsed.maxPriorityFeePerGas ?? 0n;
  // Nodes want both fees raised; a zero tip is raised by one wei.
  const maxPriorityFeePerGas = (oldPriority * feeBumpPercent) / 100n + 1n;
  let value = parsed.value ?? 0n;
  const account =
    current.signer.toLowerCase() === context.gasWallet.address.toLowerCase()
      ? context.gasWallet
      : depositAccount(context, sweep);
  if (kind === "TRANSFER" && sweep.strategy === "NATIVE") {
    // The deposit address pays the higher fee out of the value it sends.
    value -= gas * (maxFeePerGas - oldMax);
  } else if (kind === "TRANSFER") {
    // The token transfer's fee comes from the top-up: never more than the address holds.
    const coin = await context.client.getBalance({ address: sweep.fromAddress as Address });
    if (maxFeePerGas * gas > coin) maxFeePerGas = coin / gas;
  }
  if (maxFeePerGas > cap || maxFeePerGas <= oldMax || value < 0n) {
    log.warn({ sweepId: sweep.id, hash: current.hash }, "sweep transaction stuck at its fee cap");
    return;
  }
  await sign(
    context,
    sweep,
    "replace",
    kind,
    account,
    {
      to: parsed.to as Address,
      value,
      data: parsed.data,
      gas,
      maxFeePerGas,
      maxPriorityFeePerGas: smaller(maxPriorityFeePerGas, maxFeePerGas),
    },
    kind === "TRANSFER" && sweep.strategy === "NATIVE" ? { amountSent: fromBaseUnits(value, 18) } : {},
    current,
  );
}
