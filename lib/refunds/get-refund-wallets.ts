import { chainFamilyOf, nativeCoinSymbol } from "../config";
import type { Db } from "../db/client";
import { Money } from "../money/decimal";

/** An amount with its unit, e.g. { amount: "120.5", unit: "USDC" }. */
export type UnitAmount = { amount: string; unit: string };

export type RefundWalletView = {
  network: string;
  address: string;
  /** The native coin (pays the refunds' fees) first, then each token the network lists. */
  balances: UnitAmount[];
  /** What pending refunds need, per token. */
  queued: UnitAmount[];
  low: boolean;
  /**
   * Whether the wallet pays its refunds' fees in the coin (EVM). Where the family sends from the
   * service's own wallets (ChainFamily.serviceTransfers: Solana), the fee payer pays them, and the
   * rent of a token account a refund opens: the wallet needs only the tokens it refunds.
   */
  paysFees: boolean;
  checkedAt: string;
};

const asAmounts = (values: unknown): UnitAmount[] =>
  Object.entries((values ?? {}) as Record<string, string>).map(([unit, amount]) => ({
    unit,
    amount: new Money(amount).toFixed(),
  }));

/**
 * The organization's refund wallets as the signer last reported them
 * (lib/refunds/report-refund-wallets.ts), per network: none until a sweeper has read them. Each is
 * the organization's own; its refunds are paid from nothing else.
 */
export async function getRefundWallets(database: Db, organizationId: string): Promise<RefundWalletView[]> {
  const rows = await database.refundWallet.findMany({
    where: { organizationId },
    orderBy: { network: "asc" },
  });
  return rows.map((row) => {
    const coin = nativeCoinSymbol(row.network);
    return {
      network: row.network,
      address: row.address,
      balances: [
        { unit: coin, amount: new Money(row.coinBalance.toFixed()).toFixed() },
        ...asAmounts(row.tokenBalances),
      ],
      queued: asAmounts(row.queued),
      low: row.low,
      paysFees: !chainFamilyOf(row.network).serviceTransfers,
      checkedAt: row.checkedAt.toISOString(),
    };
  });
}
