import { db } from "../../lib/db/client";

/**
 * Inserts invoices number `from` to `to` of `organizationId` on the devnet in two statements
 * (each with its completed session, ids `ycs_<prefix><i>` and `inv_<prefix><i>`), on addresses
 * nobody pays, so a watcher can be measured against many. `token` USDC makes them all USDC;
 * otherwise even numbers are ETH and odd ones USDC. Their deadline is `deadline` (a PostgreSQL
 * interval, negative for the past) from now.
 */
export async function insertBulkInvoices(options: {
  organizationId: string;
  prefix: string;
  from: number;
  to: number;
  amount: number;
  status: "AWAITING_PAYMENT" | "OVERDUE";
  deadline: string;
  token?: "USDC";
}) {
  const { organizationId, prefix, from, to, amount, status, deadline } = options;
  const session = `ycs_${prefix}`;
  await db().$executeRaw`
    INSERT INTO "CheckoutSession" ("id", "organizationId", "status", "amount", "currency", "expiresAt", "updatedAt")
    SELECT ${session} || i, ${organizationId}, 'COMPLETED', ${amount}, 'USD', now(), now()
    FROM generate_series(${from}::int, ${to}::int) AS i`;
  await db().$executeRaw`
    INSERT INTO "Invoice" ("id", "organizationId", "checkoutSessionId", "network", "token", "depositAddress",
      "derivationIndex", "amountDue", "pricingAmount", "pricingCurrency", "rate", "amountUsd", "quotedAt",
      "quoteSource", "status", "deadline", "updatedAt")
    SELECT ${`inv_${prefix}`} || i, ${organizationId}, ${session} || i, 'devnet',
      CASE WHEN ${options.token ?? null}::text IS NOT NULL THEN ${options.token ?? null}::text
        WHEN i % 2 = 0 THEN 'ETH' ELSE 'USDC' END,
      '0x' || lpad(to_hex(16777216 + i), 40, '0'), 1000000 + i, ${amount}, ${amount}, 'USD', 1, ${amount}, now(),
      'bulk', ${status}::"InvoiceStatus", now() + ${deadline}::interval, now()
    FROM generate_series(${from}::int, ${to}::int) AS i`;
}
