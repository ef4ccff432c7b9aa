import type { Address, PublicClient } from "viem";
import { chainFamily } from "../chains/chain-families";
import { clientFor } from "../chains/evm/evm-client";
import { readEvmBalance } from "../chains/evm/read-evm-balance";
import { findToken, type NetworkConfig } from "../chains/networks";
import { sendingNetworks } from "../config";
import type { Db } from "../db/client";
import { log } from "../log";
import { fromBaseUnits, Money } from "../money/decimal";
import { type ReceivingWalletDifference, reconcileReceivingWallets } from "./reconcile-receiving-wallets";

export type LedgerRow = {
  invoiceId: string;
  organizationId: string;
  token: string;
  depositAddress: string;
  received: string;
  swept: string;
  feeBudget: string;
};

export type BalanceDifference = {
  network: string;
  invoiceId: string;
  organizationId: string;
  depositAddress: string;
  token: string;
  /** What the ledger says the address holds (for a native coin, the least it holds). */
  expected: string;
  onChain: string;
};

/**
 * What the ledger says each deposit address of the network's paid invoices holds: payments
 * counted (confirming or confirmed) and confirmed sweeps, with the part of their fee budgets the
 * chain did not charge. Addresses with a sweep in flight are left out.
 */
export function depositLedger(database: Db, network: string) {
  return database.$queryRaw<LedgerRow[]>`
    SELECT i."id" AS "invoiceId", i."organizationId", i."token", i."depositAddress",
           COALESCE((SELECT SUM(p."amount") FROM "Payment" p
                     WHERE p."invoiceId" = i."id" AND p."status" <> 'REORGED'), 0)::text AS "received",
           COALESCE((SELECT SUM(s."amount") FROM "Sweep" s
                     WHERE s."invoiceId" = i."id" AND s."status" = 'CONFIRMED'), 0)::text AS "swept",
           COALESCE((SELECT SUM(s."amount" - COALESCE(s."amountSent", s."amount")) FROM "Sweep" s
                     WHERE s."invoiceId" = i."id" AND s."status" = 'CONFIRMED'), 0)::text AS "feeBudget"
    FROM "Invoice" i
    WHERE i."network" = ${network}
      AND EXISTS (SELECT 1 FROM "Payment" p WHERE p."invoiceId" = i."id")
      AND NOT EXISTS (SELECT 1 FROM "Sweep" s WHERE s."invoiceId" = i."id"
                      AND s."status" IN ('PENDING', 'FUNDING', 'SUBMITTED'))`;
}

/**
 * Compares each deposit address's on-chain balance in its invoice's token with the ledger:
 * payments counted (confirming or confirmed) less confirmed sweeps. Addresses with a sweep in
 * flight are left for the next run. A native sweep leaves the part of its fee budget the chain did
 * not charge, so a native balance may exceed the ledger by up to that budget. Returns (and logs)
 * every difference; nothing is changed.
 */
export async function reconcileDepositBalances(
  database: Db,
  network: NetworkConfig,
  client: PublicClient,
): Promise<BalanceDifference[]> {
  const rows = await depositLedger(database, network.id);
  const differences: BalanceDifference[] = [];
  for (const row of rows) {
    const token = findToken(network, row.token);
    if (!token) continue;
    const address = row.depositAddress as Address;
    const units = await readEvmBalance(client, address, token.address);
    const onChain = new Money(fromBaseUnits(units, token.decimals));
    const expected = new Money(row.received).minus(row.swept);
    const slack = token.address ? new Money(0) : new Money(row.feeBudget);
    if (onChain.gte(expected) && onChain.lte(expected.plus(slack))) continue;
    differences.push({
      network: network.id,
      invoiceId: row.invoiceId,
      organizationId: row.organizationId,
      depositAddress: row.depositAddress,
      token: token.symbol,
      expected: expected.toFixed(),
      onChain: onChain.toFixed(),
    });
  }
  for (const difference of differences)
    log.warn(difference, "deposit address balance differs from the ledger");
  return differences;
}

/**
 * The daily reconciliation over every configured network: each deposit address where invoices have
 * their own, the shared receiving wallet where a family's invoices share one and the service sends
 * from it (service transfers, reconcile-receiving-wallets.ts).
 */
export async function reconcileConfiguredNetworks(database: Db) {
  const differences: (BalanceDifference | ReceivingWalletDifference)[] = [];
  for (const network of sendingNetworks()) {
    const transfers = chainFamily(network).serviceTransfers;
    differences.push(
      ...(transfers
        ? await reconcileReceivingWallets(database, network, transfers)
        : await reconcileDepositBalances(database, network, clientFor(network))),
    );
  }
  log.info({ differences: differences.length }, "deposit balances reconciled");
  return differences;
}
