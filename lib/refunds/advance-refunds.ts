import {
  type Address,
  encodeFunctionData,
  erc20Abi,
  type Hex,
  type PrivateKeyAccount,
  type PublicClient,
  parseTransaction,
} from "viem";
import { chainFamily } from "../chains/chain-families";
import { readEvmBalance } from "../chains/evm/read-evm-balance";
import { isContractAddress } from "../chains/is-contract-address";
import { evmChainId, findToken, type NetworkConfig } from "../chains/networks";
import type { Db } from "../db/client";
import type { Invoice, Payment, Refund } from "../generated/prisma/client";
import { log } from "../log";
import { formatDecimal, fromBaseUnits, toBaseUnits } from "../money/decimal";
import { estimateTransferGas, nativeTransferGas } from "../signer/estimate-transfer-gas";
import type { UnsignedTransaction } from "../signer/sign-transaction";
import { announceRefundProposal } from "./announce-refund-proposal";
import { checkPayerOnChain } from "./check-payer-on-chain";
import { checkRefundDestination } from "./check-refund-destination";
import { checkRefundNotServiceWallet } from "./check-refund-not-service-wallet";
import { fundDevnetRefundWallet } from "./fund-devnet-refund-wallet";
import { refuseRefund, tokenNotListed, waitRefund } from "./refund-pass-outcomes";
import { nextRefundStatus, type RefundStatus } from "./refund-state";
import {
  finishRefund,
  followRefund,
  type RefundContext,
  type RefundWithTransactions,
  signForRefund,
} from "./refund-transactions";

// The signer's pass over a network's refunds, organization by organization: each pays its own
// refunds from its own refund wallet (a key of the signing role at the organization's index,
// lib/sweeps/sweeper-keys.ts), funded by that merchant, so one merchant's funds never pay
// another's refunds. Per organization, submitted refunds are followed first, so what is still in
// flight is held back from its wallet's balance; then pending refunds go out in the order they
// were created while the wallet can pay them, and together never more than it holds. Once one
// cannot be paid, later ones in that token wait behind it (a big refund is not starved by small
// ones); one the signer refuses fails with the reason. An automatic overpayment refund whose payer
// is a contract (a router or bridge that may not pass it back to the buyer) is held for an owner.

/** Refunds of each status handled per organization and pass. */
const refundsPerPass = 200;

/** The signing role's refund wallet keys (lib/sweeps/sweeper-keys.ts, which imports this folder). */
export type RefundWalletKeys = {
  /** An organization's refund wallet on a chain (its Organization.refundWalletIndex). */
  refundWallet: (organizationIndex: number, chainId: number) => PrivateKeyAccount;
};

export type AdvanceRefundsOptions = {
  /** Each organization's refund wallet is derived from these. */
  keys: RefundWalletKeys;
  now?: Date;
  /** A transaction still unmined after this long is replaced with a higher fee. */
  stuckAfterMs?: number;
  /** Called between recording a transaction and broadcasting it (tests: a crash in between). */
  beforeBroadcast?: (hash: Hex) => void | Promise<void>;
};

export type AdvanceRefundsResult = Partial<Record<RefundStatus, number>>;

type PendingRefund = RefundWithTransactions & {
  invoice: Invoice & { payments: Payment[]; refunds: Refund[] };
};

/** What unmined transfers will still take from the wallet, in base units: per token, and coin. */
type InFlight = { tokens: Map<string, bigint>; coin: bigint };

/**
 * What the wallet can still spend this pass, in base units: per token symbol, and its coin; and
 * what already made a refund wait (a token's symbol, or coinKey when the coin ran short).
 */
type Budget = InFlight & { blocked: Set<string> };

const coinKey = "";

/** Base units as a short decimal ("4", not "4.000000"); what is overdrawn reads as 0. */
const shown = (units: bigint, decimals: number) =>
  formatDecimal(fromBaseUnits(units < 0n ? 0n : units, decimals));

/** One pass over the network's refunds; returns how many ended the pass in each status. */
export async function advanceRefunds(
  database: Db,
  network: NetworkConfig,
  client: PublicClient,
  options: AdvanceRefundsOptions,
): Promise<AdvanceRefundsResult> {
  const result: AdvanceRefundsResult = {};
  const organizations = await database.organization.findMany({
    where: { refunds: { some: { network: network.id, status: { in: ["PENDING", "SUBMITTED"] } } } },
    select: { id: true, refundWalletIndex: true },
    orderBy: { refundWalletIndex: "asc" },
  });
  for (const organization of organizations) {
    const context: RefundContext = {
      database,
      network,
      client,
      wallet: options.keys.refundWallet(organization.refundWalletIndex, evmChainId(network)),
      now: options.now ?? new Date(),
      stuckAfterMs: options.stuckAfterMs ?? Math.max(3 * (network.blockTimeMs ?? 12_000), 30_000),
      beforeBroadcast: options.beforeBroadcast,
    };
    // One organization's node hiccup or odd row leaves the others' refunds going.
    await advanceOrganizationRefunds(context, organization.id, result).catch((error) => {
      log.warn(
        { err: error, organizationId: organization.id, network: network.id },
        "refund pass interrupted",
      );
    });
  }
  return result;
}

/** The organization's refunds on the network, paid from its wallet (`context.wallet`). */
async function advanceOrganizationRefunds(
  context: RefundContext,
  organizationId: string,
  result: AdvanceRefundsResult,
) {
  const { database, network } = context;
  const count = (status: RefundStatus) => {
    result[status] = (result[status] ?? 0) + 1;
  };
  const inFlight: InFlight = { tokens: new Map(), coin: 0n };
  const submitted = await database.refund.findMany({
    where: { organizationId, network: network.id, status: "SUBMITTED" },
    include: { transactions: { orderBy: { createdAt: "asc" } } },
    orderBy: { createdAt: "asc" },
    take: refundsPerPass,
  });
  for (const refund of submitted) {
    refund.transactions = refund.transactions.filter((transaction) => transaction.attempt === refund.attempt);
    const status = await followSubmitted(context, refund).catch((error) => {
      // A node hiccup leaves the refund where it is; the next pass continues from the records.
      log.warn({ err: error, refundId: refund.id }, "refund pass interrupted");
      return "waiting" as const;
    });
    if (status !== "waiting") count(status);
    else {
      count("SUBMITTED");
      holdBack(context, inFlight, refund);
    }
  }

  // More in flight than one pass follows: what they will still take is not all known, so nothing
  // new goes out from this wallet until the passes have caught up.
  if (submitted.length === refundsPerPass) return;
  const pending = await database.refund.findMany({
    where: { organizationId, network: network.id, status: "PENDING" },
    include: { transactions: true, invoice: { include: { payments: true, refunds: true } } },
    orderBy: { createdAt: "asc" },
    take: refundsPerPass,
  });
  if (pending.length === 0) return;
  await fundDevnetRefundWallet(network, context.client, context.wallet.address);
  const budget = await readBudget(context, pending, inFlight);
  const fees = await context.client.estimateFeesPerGas();
  for (const refund of pending) {
    try {
      count(await startRefund(context, refund, budget, fees));
    } catch (error) {
      log.warn({ err: error, refundId: refund.id }, "refund pass interrupted");
      count(refund.status);
    }
  }
}

/** SUBMITTED: follows its transfer; SUCCEEDED at the network's depth, FAILED when it reverted. */
async function followSubmitted(
  context: RefundContext,
  refund: RefundWithTransactions,
): Promise<RefundStatus | "waiting"> {
  const transfer = await followRefund(context, refund);
  if (transfer === "waiting") return "waiting";
  if (transfer === "reverted") {
    await finishRefund(context, refund, { event: "fail", failureReason: "The refund's transfer reverted." });
    return "FAILED";
  }
  const head = await context.client.getBlockNumber();
  if (head - transfer.blockNumber + 1n < BigInt(context.network.confirmations)) return "SUBMITTED";
  await finishRefund(context, refund, { event: "confirm", txHash: transfer.hash });
  return "SUCCEEDED";
}

/** What an unmined transfer will still take from the wallet: its amount, and at most its fee. */
function holdBack(context: RefundContext, inFlight: InFlight, refund: RefundWithTransactions) {
  const current = refund.transactions.find((transaction) => !transaction.replacedAt);
  const token = findToken(context.network, refund.token);
  if (!current || !token) return;
  const parsed = parseTransaction(current.raw as Hex);
  inFlight.coin += (parsed.gas ?? 0n) * (parsed.maxFeePerGas ?? 0n) + (parsed.value ?? 0n);
  if (token.address)
    inFlight.tokens.set(
      token.symbol,
      (inFlight.tokens.get(token.symbol) ?? 0n) + toBaseUnits(refund.amount.toFixed(), token.decimals),
    );
}

/** The wallet's balances now, less what is in flight. */
async function readBudget(
  context: RefundContext,
  pending: PendingRefund[],
  inFlight: InFlight,
): Promise<Budget> {
  const { client, network, wallet } = context;
  const tokens = new Map<string, bigint>();
  for (const symbol of new Set(pending.map((refund) => refund.token))) {
    const token = findToken(network, symbol);
    if (!token?.address) continue;
    const held = await readEvmBalance(client, wallet.address, token.address);
    tokens.set(symbol, held - (inFlight.tokens.get(symbol) ?? 0n));
  }
  const coin = (await client.getBalance({ address: wallet.address })) - inFlight.coin;
  return { tokens, coin, blocked: new Set() };
}

/**
 * PENDING: the signer's own check of where and how much, then the wallet's balance; signs the
 * transfer (→ SUBMITTED) when the wallet can pay it, else the refund waits with the reason.
 */
async function startRefund(
  context: RefundContext,
  refund: PendingRefund,
  budget: Budget,
  fees: { maxFeePerGas: bigint; maxPriorityFeePerGas: bigint },
): Promise<RefundStatus> {
  const { network, wallet } = context;
  const token = findToken(network, refund.token);
  if (!token) return refuseRefund(context, refund, tokenNotListed(network, refund));
  const refusal =
    checkRefundDestination(refund, refund.invoice, chainFamily(network).addresses) ??
    // The row says who paid; the chain must say so too.
    (refund.destination === "PAYER" ? await checkPayerOnChain(context.client, token, refund) : null) ??
    (await checkRefundNotServiceWallet(context.database, context.network, refund, context.wallet.address));
  if (refusal) return refuseRefund(context, refund, refusal);
  // Read on chain here, whatever the row says: nobody asked for this refund, so money goes to a
  // contract only once an owner has looked at it.
  if (
    refund.requestedByKind === "automatic" &&
    !refund.decidedByUserId &&
    (await isContractAddress(context.client, refund.toAddress as string, { delegated: "wallet" }))
  )
    return hold(
      context,
      refund,
      `The payer ${refund.toAddress} is a contract (a router, bridge or exchange may not pass the refund back to the buyer): an owner decides.`,
    );
  const coin = network.tokens.find((candidate) => !candidate.address)?.symbol ?? "coin";
  const key = token.address ? token.symbol : coinKey;
  if (budget.blocked.has(key) || budget.blocked.has(coinKey))
    return waitRefund(
      context,
      refund,
      `Queued behind an earlier refund that the refund wallet ${wallet.address} cannot pay yet.`,
    );
  const amount = toBaseUnits(refund.amount.toFixed(), token.decimals);
  const to = refund.toAddress as Address;
  if (token.address) {
    const available = budget.tokens.get(token.symbol) ?? 0n;
    if (available < amount) {
      budget.blocked.add(key);
      return waitRefund(
        context,
        refund,
        `The refund wallet ${wallet.address} holds ${shown(available, token.decimals)} ${token.symbol}; this refund needs ${refund.amount.toFixed()} ${token.symbol}.`,
      );
    }
  }
  const gas = token.address
    ? await estimateTransferGas(context.client, {
        token: token.address as Address,
        from: wallet.address,
        to,
        amount,
      })
    : nativeTransferGas;
  const coinNeeded = gas * fees.maxFeePerGas + (token.address ? 0n : amount);
  if (budget.coin < coinNeeded) {
    budget.blocked.add(coinKey);
    const held = shown(budget.coin, 18);
    return waitRefund(
      context,
      refund,
      `The refund wallet ${wallet.address} holds ${held} ${coin}; this refund needs ${shown(coinNeeded, 18)} ${coin}${token.address ? " for its fee" : ", its amount and fee"}.`,
    );
  }
  const unsigned: UnsignedTransaction = token.address
    ? {
        to: token.address as Address,
        value: 0n,
        data: encodeFunctionData({ abi: erc20Abi, functionName: "transfer", args: [to, amount] }),
        gas,
        ...fees,
      }
    : { to, value: amount, gas, ...fees };
  // Spent before signing: a transfer recorded but interrupted before its broadcast still counts.
  budget.coin -= coinNeeded;
  if (token.address) budget.tokens.set(token.symbol, (budget.tokens.get(token.symbol) ?? 0n) - amount);
  await signForRefund(context, refund, "submit", unsigned);
  return "SUBMITTED";
}

/** PENDING → REQUIRES_APPROVAL with the reason, announced to every owner as a proposal is. */
async function hold(context: RefundContext, refund: PendingRefund, reason: string): Promise<RefundStatus> {
  const status = nextRefundStatus(refund.status, "hold");
  if (!status) throw new Error(`refund ${refund.id}: hold does not apply in ${refund.status}`);
  const { count } = await context.database.refund.updateMany({
    where: { id: refund.id, organizationId: refund.organizationId, status: refund.status },
    data: { status, pendingReason: reason },
  });
  if (count === 0) return refund.status;
  log.warn({ refundId: refund.id, network: context.network.id }, `refund held for an owner: ${reason}`);
  const held = await context.database.refund.findUniqueOrThrow({ where: { id: refund.id } });
  await announceRefundProposal(context.database, held);
  return status;
}
