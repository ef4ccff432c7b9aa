import { db } from "../../lib/db/client";

/**
 * Inserts invoices number `from` to `to` of `organizationId` on the devnet in two statements of
 * one transaction (each with its completed session, ids `ycs_<prefix><i>` and `inv_<prefix><i>`),
 * on addresses nobody pays, so a watcher can be measured against many. `token` USDC makes them all
 * USDC; otherwise even numbers are ETH and odd ones USDC. Their deadline is `deadline` (a PostgreSQL
 * interval, negative for the past) from now. CONFIRMED ones are paid in full, number i confirmed
 * i seconds after `confirmedFrom` (for reports).
 */
export async function insertBulkInvoices(options: {
  organizationId: string;
  prefix: string;
  from: number;
  to: number;
  amount: number;
  status: "AWAITING_PAYMENT" | "OVERDUE" | "CONFIRMED";
  deadline: string;
  confirmedFrom?: Date;
  token?: "USDC";
  /**
   * A Solana network whose invoices all pay this receiving wallet, each with its own reference
   * (`<prefix>ref<i>`, a key no transfer carries); the devnet with an address each when absent.
   */
  solana?: { network: string; receiver: string };
}) {
  const { organizationId, prefix, from, to, amount, status, deadline } = options;
  const session = `ycs_${prefix}`;
  await db().$transaction(
    async (tx) => {
      // The rows hold together by construction (the organization exists, each session goes in
      // before its invoice): where the role may (a superuser, as on the embedded database), the
      // foreign-key checks are left out, about 40% of the insert's CPU at 100,000 rows.
      await tx.$queryRaw`
        SELECT set_config('session_replication_role', 'replica', true)
        WHERE current_setting('is_superuser') = 'on'`;
      await tx.$executeRaw`
      INSERT INTO "CheckoutSession" ("id", "organizationId", "status", "amount", "currency", "expiresAt", "updatedAt")
      SELECT ${session} || i, ${organizationId}, 'COMPLETED', ${amount}, 'USD', now(), now()
      FROM generate_series(${from}::int, ${to}::int) AS i`;
      await tx.$executeRaw`
      INSERT INTO "Invoice" ("id", "organizationId", "checkoutSessionId", "network", "token", "depositAddress",
        "reference", "derivationIndex", "amountDue", "amountPaid", "pricingAmount", "pricingCurrency", "rate", "amountUsd", "quotedAt",
        "quoteSource", "status", "confirmedAt", "deadline", "updatedAt")
      SELECT ${`inv_${prefix}`} || i, ${organizationId}, ${session} || i, ${options.solana?.network ?? "devnet"},
        CASE WHEN ${options.token ?? null}::text IS NOT NULL THEN ${options.token ?? null}::text
          WHEN i % 2 = 0 THEN 'ETH' ELSE 'USDC' END,
        COALESCE(${options.solana?.receiver ?? null}::text, '0x' || lpad(to_hex(16777216 + i), 40, '0')),
        CASE WHEN ${options.solana?.network ?? null}::text IS NULL THEN NULL ELSE ${`${prefix}ref`} || i END,
        1000000 + i, ${amount}, CASE WHEN ${status} = 'CONFIRMED' THEN ${amount} ELSE 0 END, ${amount}, 'USD', 1, ${amount}, now(),
        'bulk', ${status}::"InvoiceStatus",
        CASE WHEN ${status} = 'CONFIRMED' THEN ${options.confirmedFrom ?? new Date()}::timestamptz + i * interval '1 second' END,
        now() + ${deadline}::interval, now()
      FROM generate_series(${from}::int, ${to}::int) AS i`;
    },
    // 100,000 rows outlast the default five seconds on a busy machine.
    { timeout: 120_000 },
  );
}
