import { chainFamily } from "../chains/chain-families";
import type { ServiceTransfers } from "../chains/chain-family";
import type { NetworkConfig } from "../chains/networks";
import type { Db } from "../db/client";
import { log } from "../log";
import { fromBaseUnits, Money } from "../money/decimal";

export type ReceivingLedgerRow = { receiver: string; token: string; held: string; inFlight: string };

export type ReceivingWalletDifference = {
  network: string;
  /** The shared receiving wallet every invoice of the network pays. */
  receiver: string;
  token: string;
  /** What the ledger says it holds; up to `inFlight` of it may have left already. */
  expected: string;
  inFlight: string;
  onChain: string;
};

/**
 * What the ledger says each receiving wallet of the network holds per token: every payment counted
 * into it (invoices' payments, late and over payments the watcher recorded, x402 payments; none
 * reorganised away) less what confirmed sweeps took out of it. `inFlight` is what submitted sweeps
 * may have taken already, unconfirmed. Refunds leave from the refund wallets, so they are not here.
 */
export function receivingWalletLedger(database: Db, network: string) {
  return database.$queryRaw<ReceivingLedgerRow[]>`
    WITH received AS (
      SELECT i."depositAddress" AS "receiver", i."token", SUM(p."amount") AS "amount"
      FROM "Payment" p JOIN "Invoice" i ON i."id" = p."invoiceId"
      WHERE i."network" = ${network} AND p."status" <> 'REORGED'
      GROUP BY i."depositAddress", i."token"),
    swept AS (
      SELECT s."fromAddress" AS "receiver", s."token",
             SUM(COALESCE(s."amountSent", s."amount")) FILTER (WHERE s."status" = 'CONFIRMED') AS "confirmed",
             SUM(s."amount") FILTER (WHERE s."status" = 'SUBMITTED') AS "submitted"
      FROM "Sweep" s
      WHERE s."network" = ${network}
      GROUP BY s."fromAddress", s."token")
    SELECT COALESCE(r."receiver", w."receiver") AS "receiver", COALESCE(r."token", w."token") AS "token",
           (COALESCE(r."amount", 0) - COALESCE(w."confirmed", 0))::text AS "held",
           COALESCE(w."submitted", 0)::text AS "inFlight"
    FROM received r FULL JOIN swept w ON w."receiver" = r."receiver" AND w."token" = r."token"`;
}

/**
 * Where every invoice of a network pays one shared receiving wallet (ChainFamily.serviceTransfers:
 * Solana), compares that wallet's on-chain balance in each token the network lists with the
 * ledger (receivingWalletLedger): a transfer nobody recorded (sent without an invoice's reference),
 * a payment the ledger holds that the chain does not, or a sweep recorded but not made all show
 * as a difference. A submitted sweep may have landed or not, so the balance may be short of the
 * ledger by up to what is in flight. A payment the watcher has not read yet differs until the next
 * run. Returns (and logs) every difference; nothing is changed.
 */
export async function reconcileReceivingWallets(
  database: Db,
  network: NetworkConfig,
  transfers: ServiceTransfers,
): Promise<ReceivingWalletDifference[]> {
  const ledger = new Map(
    (await receivingWalletLedger(database, network.id)).map((row) => [`${row.receiver}/${row.token}`, row]),
  );
  // The wallet itself, so that funds sent to it before any invoice recorded a payment count too.
  const [{ address: receiver }] = chainFamily(network).paymentReceivers(network, {}, [0]);
  const wallets = new Set([receiver, ...[...ledger.values()].map((row) => row.receiver)]);
  const differences: ReceivingWalletDifference[] = [];
  for (const wallet of wallets)
    for (const token of network.tokens) {
      if (!token.address) continue;
      const row = ledger.get(`${wallet}/${token.symbol}`);
      const expected = new Money(row?.held ?? 0);
      const inFlight = new Money(row?.inFlight ?? 0);
      const onChain = new Money(
        fromBaseUnits(await transfers.balance(network, wallet, token), token.decimals),
      );
      if (onChain.lte(expected) && onChain.gte(expected.minus(inFlight))) continue;
      differences.push({
        network: network.id,
        receiver: wallet,
        token: token.symbol,
        expected: expected.toFixed(),
        inFlight: inFlight.toFixed(),
        onChain: onChain.toFixed(),
      });
    }
  for (const difference of differences)
    log.warn(difference, "receiving wallet balance differs from the ledger");
  return differences;
}
