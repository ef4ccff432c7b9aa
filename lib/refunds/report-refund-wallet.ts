import { type Address, erc20Abi, type PublicClient } from "viem";
import type { NetworkConfig } from "../chains/networks";
import type { Db } from "../db/client";
import { log } from "../log";
import { fromBaseUnits, Money, toBaseUnits } from "../money/decimal";
import { nativeTransferGas, tokenTransferGas } from "../signer/estimate-transfer-gas";

/**
 * Reads the refund wallet's balances and records them with what pending refunds need (per token)
 * and whether the wallet is low: it holds less of a token than the refunds waiting for it, or too
 * little coin for their fees. The web tier (which holds no key) shows this on the Settlement page
 * and in metrics; a low wallet also logs an alert-level line (the RefundWalletLow alert fires on
 * the metric, docs/operations.md).
 */
export async function reportRefundWallet(
  database: Db,
  network: NetworkConfig,
  client: PublicClient,
  address: Address,
  now = new Date(),
) {
  const [coin, fees, pending] = await Promise.all([
    client.getBalance({ address }),
    client.estimateFeesPerGas(),
    database.refund.groupBy({
      by: ["token"],
      where: { network: network.id, status: "PENDING" },
      _sum: { amount: true },
      _count: { _all: true },
    }),
  ]);
  const tokenBalances: Record<string, string> = {};
  const queued: Record<string, string> = {};
  const short: string[] = [];
  let coinNeeded = 0n;
  for (const token of network.tokens) {
    const held = token.address
      ? await client.readContract({
          address: token.address as Address,
          abi: erc20Abi,
          functionName: "balanceOf",
          args: [address],
        })
      : coin;
    if (token.address) tokenBalances[token.symbol] = fromBaseUnits(held, token.decimals);
    const row = pending.find((candidate) => candidate.token === token.symbol);
    if (!row) continue;
    const need = new Money(row._sum.amount?.toString() ?? "0");
    queued[token.symbol] = need.toFixed();
    const units = toBaseUnits(need.toFixed(), token.decimals);
    coinNeeded +=
      BigInt(row._count._all) * (token.address ? tokenTransferGas : nativeTransferGas) * fees.maxFeePerGas;
    if (token.address && held < units) short.push(`${need.toFixed()} ${token.symbol} queued`);
    if (!token.address) coinNeeded += units;
  }
  if (coin < coinNeeded) short.push(`${fromBaseUnits(coinNeeded, 18)} coin needed for amounts and fees`);
  const data = {
    address,
    coinBalance: fromBaseUnits(coin, 18),
    tokenBalances,
    queued,
    low: short.length > 0,
    checkedAt: now,
  };
  if (data.low)
    log.warn(
      { alert: true, network: network.id, address, coinBalance: data.coinBalance, tokenBalances, queued },
      `refund wallet low: ${short.join("; ")}; pending refunds wait until it is funded`,
    );
  return database.refundWallet.upsert({
    where: { network: network.id },
    create: { network: network.id, ...data },
    update: data,
  });
}
