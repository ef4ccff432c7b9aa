import { type Db, sqlPool } from "../db/client";
import { notFound } from "../errors";
import { type CheckoutSession, Prisma } from "../generated/prisma/client";
import { hasIdPrefix } from "../ids";
import { formatDecimal, Money } from "../money/decimal";
import { formatTokenAmount } from "../money/format-token-amount";
import type { PaymentSummary } from "../payments/payment-summary";
import { applySessionExpiry } from "./apply-session-expiry";

type Row = Omit<CheckoutSession, "amount"> & {
  amount: string;
  invoiceId: string | null;
  invoiceStatus: PaymentSummary["status"] | null;
  invoiceNetwork: string;
  invoiceToken: string;
  invoiceAmountDue: string;
  invoiceAmountPaid: string;
  invoiceAmountUsd: string;
  invoiceRate: string;
  invoiceDeadline: Date;
};

/** The organization's session by id with its payment summary; another organization's id is unknown here. */
export async function getCheckoutSession(database: Db, organizationId: string, id: string, now = new Date()) {
  if (!hasIdPrefix("checkoutSession", id)) throw notFound("checkout session");
  // Merchants poll this; like the key lookup it skips the ORM's per-query cost (see sqlPool), and
  // reads the invoice in the same round trip. Amounts come as text: they must not pass a float.
  const { rows } = await sqlPool(database).query<Row>(
    `SELECT s.*, i."id" AS "invoiceId", i."status" AS "invoiceStatus", i."network" AS "invoiceNetwork",
       i."token" AS "invoiceToken", i."amountDue"::text AS "invoiceAmountDue",
       i."amountPaid"::text AS "invoiceAmountPaid", i."amountUsd"::text AS "invoiceAmountUsd",
       i."rate"::text AS "invoiceRate", i."deadline" AS "invoiceDeadline"
     FROM "CheckoutSession" s LEFT JOIN "Invoice" i ON i."checkoutSessionId" = s."id"
     WHERE s."id" = $1 AND s."organizationId" = $2`,
    [id, organizationId],
  );
  const row = rows[0];
  if (!row) throw notFound("checkout session");
  const {
    invoiceId,
    invoiceStatus,
    invoiceNetwork,
    invoiceToken,
    invoiceAmountDue,
    invoiceAmountPaid,
    invoiceAmountUsd,
    invoiceRate,
    invoiceDeadline,
    ...session
  } = row;
  const payment: PaymentSummary | null =
    invoiceId && invoiceStatus
      ? {
          invoiceId,
          status: invoiceStatus,
          network: invoiceNetwork,
          token: invoiceToken,
          amountDue: formatTokenAmount(invoiceNetwork, invoiceToken, invoiceAmountDue),
          amountPaid: formatTokenAmount(invoiceNetwork, invoiceToken, invoiceAmountPaid),
          overpaid: formatTokenAmount(
            invoiceNetwork,
            invoiceToken,
            Money.max(new Money(invoiceAmountPaid).minus(invoiceAmountDue), 0),
          ),
          amountUsd: invoiceAmountUsd,
          rate: formatDecimal(invoiceRate),
          deadline: invoiceDeadline.toISOString(),
        }
      : null;
  const current = await applySessionExpiry(
    database,
    { ...session, amount: new Prisma.Decimal(session.amount) },
    now,
  );
  return { session: current, payment };
}
