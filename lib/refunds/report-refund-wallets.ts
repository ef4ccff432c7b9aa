import type { Address, PublicClient } from "viem";
import { readEvmBalance } from "../chains/evm/read-evm-balance";
import type { NetworkConfig } from "../chains/networks";
import { evmChainId } from "../chains/networks";
import type { Db } from "../db/client";
import { log } from "../log";
import { fromBaseUnits, Money, toBaseUnits } from "../money/decimal";
import { nativeTransferGas, tokenTransferGas } from "../signer/estimate-transfer-gas";
import type { RefundWalletKeys } from "./advance-refunds";

/** Organizations without open refunds whose wallet is read per pass, the longest unread first. */
const idleBatch = 50;

type Fees = { maxFeePerGas: bigint };
export type Queued = { token: string; amount: string; count: number };

/**
 * Reads the organizations' refund wallets on the network and records, per wallet, its balances
 * with what its pending refunds need (per token) and whether it is low: it holds less of a token
 * than the refunds waiting for it, or too little coin for their fees. Every organization with
 * refunds pending or in flight (or last reported low or queued) is read each pass; besides them a
 * bounded batch of the others that settle or have refunded on the network, the longest unread
 * first, so an owner sees the address to fund before the first refund. The web tier (which holds no key) shows these on the Settlement
 * page and in metrics; a low wallet also logs an alert-level line (the RefundWalletLow alert fires
 * on the metric, docs/operations.md).
 */
export async function reportRefundWallets(
  database: Db,
  network: NetworkConfig,
  client: PublicClient,
  keys: RefundWalletKeys,
  now = new Date(),
) {
  const { organizations, queuedOf } = await refundWalletsToReport(database, network);
  if (organizations.length === 0) return;
  const fees = await client.estimateFeesPerGas();
  for (const organization of organizations) {
    const address = keys.refundWallet(organization.refundWalletIndex, evmChainId(network)).address;
    await reportWallet(database, network, client, {
      organizationId: organization.id,
      address,
      queued: queuedOf(organization.id),
      fees,
      now,
    }).catch((error) =>
      log.warn(
        { err: error, organizationId: organization.id, network: network.id },
        "refund wallet report failed",
      ),
    );
  }
}

/**
 * The organizations whose refund wallet on the network a pass reads (reportRefundWallets), and
 * what each one's pending refunds need per token.
 */
export async function refundWalletsToReport(database: Db, network: NetworkConfig) {
  const active = await database.organization.findMany({
    where: {
      OR: [
        { refunds: { some: { network: network.id, status: { in: ["PENDING", "SUBMITTED"] } } } },
        // Last reported low or with a queue: read again so neither outlives the refunds.
        {
          refundWallets: {
            some: { network: network.id, OR: [{ low: true }, { NOT: { queued: { equals: {} } } }] },
          },
        },
      ],
    },
    select: { id: true, refundWalletIndex: true },
  });
  const idle = await idleOrganizations(
    database,
    network,
    active.map((organization) => organization.id),
  );
  const pending = await database.refund.groupBy({
    by: ["organizationId", "token"],
    where: {
      organizationId: { in: active.map((organization) => organization.id) },
      network: network.id,
      status: "PENDING",
    },
    _sum: { amount: true },
    _count: { _all: true },
  });
  const queuedOf = (organizationId: string): Queued[] =>
    pending
      .filter((row) => row.organizationId === organizationId)
      .map((row) => ({
        token: row.token,
        amount: new Money(row._sum.amount?.toString() ?? "0").toFixed(),
        count: row._count._all,
      }));
  return { organizations: [...active, ...idle], queuedOf };
}

/**
 * Up to idleBatch organizations that settle or have refunded on the network: those never read
 * first, then those read longest ago.
 */
async function idleOrganizations(database: Db, network: NetworkConfig, active: string[]) {
  const unread = await database.organization.findMany({
    where: {
      id: { notIn: active },
      OR: [
        { settlementWallets: { some: { network: network.id } } },
        { refunds: { some: { network: network.id } } },
      ],
      refundWallets: { none: { network: network.id } },
    },
    select: { id: true, refundWalletIndex: true },
    orderBy: { refundWalletIndex: "asc" },
    take: idleBatch,
  });
  if (unread.length === idleBatch) return unread;
  const stalest = await database.refundWallet.findMany({
    where: { network: network.id, organizationId: { notIn: active } },
    select: { organization: { select: { id: true, refundWalletIndex: true } } },
    orderBy: { checkedAt: "asc" },
    take: idleBatch - unread.length,
  });
  return [...unread, ...stalest.map((row) => row.organization)];
}

async function reportWallet(
  database: Db,
  network: NetworkConfig,
  client: PublicClient,
  wallet: { organizationId: string; address: Address; queued: Queued[]; fees: Fees; now: Date },
) {
  const coin = await client.getBalance({ address: wallet.address });
  const tokens: Record<string, bigint> = {};
  let coinNeeded = 0n;
  for (const token of network.tokens) {
    if (token.address) tokens[token.symbol] = await readEvmBalance(client, wallet.address, token.address);
    const row = wallet.queued.find((candidate) => candidate.token === token.symbol);
    if (!row) continue;
    coinNeeded +=
      BigInt(row.count) * (token.address ? tokenTransferGas : nativeTransferGas) * wallet.fees.maxFeePerGas;
    if (!token.address) coinNeeded += toBaseUnits(row.amount, token.decimals);
  }
  await saveRefundWallet(database, network, { ...wallet, coin, coinDecimals: 18, tokens, coinNeeded });
}

/**
 * Records a refund wallet's balances (base units) with what its pending refunds need, and whether
 * it is low: it holds less of a token than the refunds waiting for it, or less coin than
 * `coinNeeded` (their fees, and amounts in the coin); a low wallet also logs an alert-level line.
 */
export async function saveRefundWallet(
  database: Db,
  network: NetworkConfig,
  wallet: {
    organizationId: string;
    address: string;
    coin: bigint;
    coinDecimals: number;
    tokens: Record<string, bigint>;
    queued: Queued[];
    coinNeeded: bigint;
    now: Date;
  },
) {
  const { organizationId, address } = wallet;
  const tokenBalances: Record<string, string> = {};
  const queued: Record<string, string> = {};
  const short: string[] = [];
  for (const token of network.tokens) {
    const held = token.address ? (wallet.tokens[token.symbol] ?? 0n) : wallet.coin;
    if (token.address) tokenBalances[token.symbol] = fromBaseUnits(held, token.decimals);
    const row = wallet.queued.find((candidate) => candidate.token === token.symbol);
    if (!row) continue;
    queued[token.symbol] = row.amount;
    if (token.address && held < toBaseUnits(row.amount, token.decimals))
      short.push(`${row.amount} ${token.symbol} queued`);
  }
  if (wallet.coin < wallet.coinNeeded)
    short.push(`${fromBaseUnits(wallet.coinNeeded, wallet.coinDecimals)} coin needed for amounts and fees`);
  const data = {
    address,
    coinBalance: fromBaseUnits(wallet.coin, wallet.coinDecimals),
    tokenBalances,
    queued,
    low: short.length > 0,
    checkedAt: wallet.now,
  };
  if (data.low)
    log.warn(
      {
        alert: true,
        network: network.id,
        organizationId,
        address,
        coinBalance: data.coinBalance,
        tokenBalances,
        queued,
      },
      `refund wallet low: ${short.join("; ")}; pending refunds wait until it is funded`,
    );
  await database.refundWallet.upsert({
    where: { organizationId_network: { organizationId, network: network.id } },
    create: { organizationId, network: network.id, ...data },
    update: data,
  });
}
