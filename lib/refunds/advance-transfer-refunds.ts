import { chainFamily } from "../chains/chain-families";
import { findToken, type NetworkConfig } from "../chains/networks";
import type { Db } from "../db/client";
import type { Invoice, Payment, Refund } from "../generated/prisma/client";
import { log } from "../log";
import { formatDecimal, fromBaseUnits, toBaseUnits } from "../money/decimal";
import {
  currentServiceTransfer,
  followServiceTransfer,
  markServiceTransferReplaced,
} from "../signer/follow-service-transfer";
import { serviceTransfersOf, signServiceTransfer } from "../signer/sign-service-transfer";
import type { AdvanceRefundsResult } from "./advance-refunds";
import { checkRefundDestination, type RefundRefusal } from "./check-refund-destination";
import { checkRefundNotServiceWallet } from "./check-refund-not-service-wallet";
import { devnetRefundWalletFunds } from "./fund-devnet-refund-wallet";
import { type RefundPassContext, refuseRefund, tokenNotListed, waitRefund } from "./refund-pass-outcomes";
import { nextRefundStatus, type RefundStatus } from "./refund-state";
import { finishRefund, type RefundWithTransactions } from "./refund-transactions";

// The signer's pass over a network's refunds where its family sends from the service's own wallets
// (ChainFamily.serviceTransfers: Solana). As on EVM (advance-refunds.ts), each organization pays
// from its own refund wallet (the signing role's key at its refundWalletIndex), in the order its
// refunds were created and never beyond what the wallet holds less what is in flight; the fee payer
// pays the fees and the payee's token account when it has none. A transfer is signed with no
// database transaction open, recorded with the refund's move to SUBMITTED, then sent; each pass
// follows it at the network's commitment. Only once the chain says it expired (it never landed and
// never will) is the refund signed anew, so a crash anywhere pays at most once.

/** Refunds of each status handled per organization and pass. */
const refundsPerPass = 200;

export type AdvanceTransferRefundsOptions = {
  /** The signing role's mnemonic: the refund wallets' and fee payer's keys. */
  mnemonic: string;
  now?: Date;
  /** Called between recording a transfer and sending it (tests: a crash in between). */
  beforeBroadcast?: (id: string) => void | Promise<void>;
};

type Context = RefundPassContext & AdvanceTransferRefundsOptions & { wallet: string; index: number };

type PendingRefund = RefundWithTransactions & {
  invoice: Invoice & { payments: Payment[]; refunds: Refund[] };
};

/** One pass over the network's refunds; returns how many ended the pass in each status. */
export async function advanceTransferRefunds(
  database: Db,
  network: NetworkConfig,
  options: AdvanceTransferRefundsOptions,
): Promise<AdvanceRefundsResult> {
  const result: AdvanceRefundsResult = {};
  const transfers = serviceTransfersOf(network);
  const organizations = await database.organization.findMany({
    where: { refunds: { some: { network: network.id, status: { in: ["PENDING", "SUBMITTED"] } } } },
    select: { id: true, refundWalletIndex: true },
    orderBy: { refundWalletIndex: "asc" },
  });
  for (const organization of organizations) {
    const context: Context = {
      ...options,
      database,
      network,
      now: options.now ?? new Date(),
      index: organization.refundWalletIndex,
      wallet: transfers.wallet(network, options.mnemonic, "refund", organization.refundWalletIndex),
    };
    // One organization's node hiccup or odd row leaves the others' refunds going.
    await advanceOrganization(context, organization.id, result).catch((error) => {
      log.warn(
        { err: error, organizationId: organization.id, network: network.id },
        "refund pass interrupted",
      );
    });
  }
  return result;
}

async function advanceOrganization(context: Context, organizationId: string, result: AdvanceRefundsResult) {
  const { database, network } = context;
  const count = (status: RefundStatus) => {
    result[status] = (result[status] ?? 0) + 1;
  };
  const inFlight = new Map<string, bigint>();
  const submitted = await database.refund.findMany({
    where: { organizationId, network: network.id, status: "SUBMITTED" },
    include: { transactions: { orderBy: { createdAt: "asc" } } },
    orderBy: { createdAt: "asc" },
    take: refundsPerPass,
  });
  for (const refund of submitted) {
    const status = await followRefund(context, refund).catch((error) => {
      // A node hiccup leaves the refund where it is; the next pass continues from the records.
      log.warn({ err: error, refundId: refund.id }, "refund pass interrupted");
      return "SUBMITTED" as const;
    });
    count(status);
    const token = findToken(network, refund.token);
    if (status === "SUBMITTED" && token)
      inFlight.set(
        token.symbol,
        (inFlight.get(token.symbol) ?? 0n) + toBaseUnits(refund.amount.toFixed(), token.decimals),
      );
  }
  // More in flight than one pass follows: nothing new goes out until the passes have caught up.
  if (submitted.length === refundsPerPass) return;
  const pending = await database.refund.findMany({
    where: { organizationId, network: network.id, status: "PENDING" },
    include: { transactions: true, invoice: { include: { payments: true, refunds: true } } },
    orderBy: { createdAt: "asc" },
    take: refundsPerPass,
  });
  if (pending.length === 0) return;
  await chainFamily(network).fundDevnetWallet?.(
    network,
    context.wallet,
    BigInt(devnetRefundWalletFunds.token),
  );
  const transfers = serviceTransfersOf(network);
  const budget = new Map<string, bigint>();
  const blocked = new Set<string>();
  for (const refund of pending) {
    try {
      const token = findToken(network, refund.token);
      if (!token) {
        count(await refuseRefund(context, refund, tokenNotListed(network, refund)));
        continue;
      }
      if (!budget.has(token.symbol))
        budget.set(
          token.symbol,
          (await transfers.balance(network, context.wallet, token)) - (inFlight.get(token.symbol) ?? 0n),
        );
      count(await startRefund(context, refund, token, budget, blocked));
    } catch (error) {
      log.warn({ err: error, refundId: refund.id }, "refund pass interrupted");
      count(refund.status);
    }
  }
}

/**
 * SUBMITTED: one step of following its transfer. Confirmed at the network's commitment →
 * SUCCEEDED; failed on chain → FAILED with the chain's reason; expired → signed anew (the refund
 * stays SUBMITTED with the new transfer); pending → it waits.
 */
async function followRefund(context: Context, refund: RefundWithTransactions): Promise<RefundStatus> {
  const current = currentServiceTransfer(
    refund.transactions.filter((transaction) => transaction.attempt === refund.attempt),
  );
  if (!current) throw new Error(`refund ${refund.id} is SUBMITTED with no recorded transfer`);
  const progress = await followServiceTransfer(context.database, context.network, current);
  switch (progress.state) {
    case "confirmed":
      await finishRefund(context, refund, { event: "confirm", txHash: current.hash });
      return "SUCCEEDED";
    case "failed":
      await finishRefund(context, refund, {
        event: "fail",
        failureReason: `The refund's transfer ${current.hash} failed on chain: ${progress.reason}`,
      });
      return "FAILED";
    case "expired": {
      const token = findToken(context.network, refund.token);
      if (!token) return refuseRefund(context, refund, tokenNotListed(context.network, refund));
      log.warn(
        { refundId: refund.id, transfer: current.hash },
        "refund transfer expired unseen; signing it anew",
      );
      return send(context, refund, token, "replace", current.id);
    }
    default:
      return "SUBMITTED";
  }
}

/**
 * PENDING: the signer's own check of where and how much, then the wallet's balance; signs and
 * sends the transfer (→ SUBMITTED) when the wallet can pay it, else the refund waits with the reason.
 */
async function startRefund(
  context: Context,
  refund: PendingRefund,
  token: NonNullable<ReturnType<typeof findToken>>,
  budget: Map<string, bigint>,
  blocked: Set<string>,
): Promise<RefundStatus> {
  const refusal =
    checkRefundDestination(refund, refund.invoice, chainFamily(context.network).addresses) ??
    // The row says who paid; the chain must say so too.
    (refund.destination === "PAYER" ? await checkPayerOnChain(context.network, token, refund) : null) ??
    (await checkRefundNotServiceWallet(context.database, context.network, refund, context.wallet));
  if (refusal) return refuseRefund(context, refund, refusal);
  if (blocked.has(token.symbol))
    return waitRefund(
      context,
      refund,
      `Queued behind an earlier refund that the refund wallet ${context.wallet} cannot pay yet.`,
    );
  const units = toBaseUnits(refund.amount.toFixed(), token.decimals);
  const available = budget.get(token.symbol) ?? 0n;
  if (available < units) {
    blocked.add(token.symbol);
    const held = formatDecimal(fromBaseUnits(available < 0n ? 0n : available, token.decimals));
    return waitRefund(
      context,
      refund,
      `The refund wallet ${context.wallet} holds ${held} ${token.symbol}; this refund needs ${refund.amount.toFixed()} ${token.symbol}.`,
    );
  }
  // Spent before signing: a transfer recorded but interrupted before it was sent still counts.
  budget.set(token.symbol, available - units);
  return send(context, refund, token, "submit");
}

/**
 * The signer's own reading of a refund to the payer, where the family reads payments again
 * (ChainFamily.confirmsPayer): one of the invoice's counted payments recorded from that address
 * must stand on chain as its transfer into the invoice's receiver. A node that cannot answer
 * throws: the refund waits.
 */
async function checkPayerOnChain(
  network: NetworkConfig,
  token: NonNullable<ReturnType<typeof findToken>>,
  refund: PendingRefund,
): Promise<RefundRefusal | null> {
  const { addresses, confirmsPayer } = chainFamily(network);
  if (!confirmsPayer) return null;
  const to = refund.toAddress as string;
  for (const payment of refund.invoice.payments)
    if (
      payment.status !== "REORGED" &&
      payment.fromAddress &&
      addresses.key(payment.fromAddress) === addresses.key(to) &&
      (await confirmsPayer(network, {
        transaction: payment.txHash,
        index: payment.logIndex,
        receiver: refund.invoice.depositAddress,
        token,
        payer: payment.fromAddress,
      }))
    )
      return null;
  return {
    reason: "payer_not_on_chain",
    message: `Refused to pay ${to}: no transfer from it to the invoice's address ${refund.invoice.depositAddress} is on chain.`,
  };
}

/**
 * Signs the refund's transfer and records it with the refund's move (submit: PENDING → SUBMITTED;
 * replace: the expired transfer `replaces` marked replaced), then sends it. A destination the
 * family refuses (no wallet) fails the refund with the reason.
 */
async function send(
  context: Context,
  refund: Refund,
  token: NonNullable<ReturnType<typeof findToken>>,
  event: "submit" | "replace",
  replaces?: string,
): Promise<RefundStatus> {
  const status = nextRefundStatus(refund.status, event);
  if (!status) throw new Error(`refund ${refund.id}: ${event} does not apply in ${refund.status}`);
  const sent = await signServiceTransfer({
    database: context.database,
    network: context.network,
    mnemonic: context.mnemonic,
    request: {
      from: { role: "refund", index: context.index },
      to: refund.toAddress as string,
      token,
      units: toBaseUnits(refund.amount.toFixed(), token.decimals),
      memo: refund.id,
      // A payer paid from a token account; one they closed since is not reopened at the service's
      // cost (they would close it again and keep the rent): an owner can name an address instead.
      existingAccountOnly: refund.destination === "PAYER",
    },
    now: context.now,
    beforeBroadcast: context.beforeBroadcast,
    owner: {
      link: { refundId: refund.id },
      attempt: refund.attempt,
      record: async (tx, id) => {
        const moved = await tx.refund.updateMany({
          where: { id: refund.id, organizationId: refund.organizationId, status: refund.status },
          data:
            event === "submit"
              ? { status, txHash: id, submittedAt: context.now, pendingReason: null }
              : { status, txHash: id, resubmissions: { increment: 1 } },
        });
        if (moved.count !== 1) throw new Error(`refund ${refund.id} moved on meanwhile`);
        if (replaces) await markServiceTransferReplaced(tx, replaces, context.now);
      },
    },
  });
  if (sent.state === "refused")
    return refuseRefund(context, refund, { reason: sent.code, message: `Refused: ${sent.reason}.` });
  return status;
}
