import DataLoader from "dataloader";
import type pg from "pg";
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

type Key = { organizationId: string; id: string };

// Merchants poll this; like the key lookup it skips the ORM's per-query cost (see sqlPool), and
// reads the invoice in the same row. Reads that arrive together share one statement, as creates
// do (insert-claimed-session.ts): a round trip of its own each (the socket write, the read, the
// pool) cost a retrieve more CPU than a create. Unprepared, since `s.*` must follow a column a
// migration adds while this instance runs. Amounts come as text: they must not pass a float.
const statement = `SELECT input."position"::int AS "position", s.*, i."id" AS "invoiceId",
    i."status" AS "invoiceStatus", i."network" AS "invoiceNetwork", i."token" AS "invoiceToken",
    i."amountDue"::text AS "invoiceAmountDue", i."amountPaid"::text AS "invoiceAmountPaid",
    i."amountUsd"::text AS "invoiceAmountUsd", i."rate"::text AS "invoiceRate",
    i."deadline" AS "invoiceDeadline"
  FROM unnest($1::text[], $2::text[]) WITH ORDINALITY AS input("organizationId", "id", "position")
  JOIN "CheckoutSession" s ON s."id" = input."id" AND s."organizationId" = input."organizationId"
  LEFT JOIN "Invoice" i ON i."checkoutSessionId" = s."id"`;

const loaders = new WeakMap<pg.Pool, DataLoader<Key, Row | null>>();

function loaderFor(pool: pg.Pool) {
  let loader = loaders.get(pool);
  if (!loader) {
    loader = new DataLoader<Key, Row | null>(
      async (keys) => {
        const { rows } = await pool.query<Row & { position: number }>(statement, [
          keys.map((key) => key.organizationId),
          keys.map((key) => key.id),
        ]);
        const found: (Row | null)[] = keys.map(() => null);
        for (const { position, ...row } of rows) found[position - 1] = row;
        return found;
      },
      // Every call reads afresh (a poll must see the payment land); the batch is what arrived
      // in one turn of the event loop, as setImmediate runs after the sockets' reads of that turn.
      { cache: false, maxBatchSize: 64, batchScheduleFn: (send) => setImmediate(send) },
    );
    loaders.set(pool, loader);
  }
  return loader;
}

/** The organization's session by id with its payment summary; another organization's id is unknown here. */
export async function getCheckoutSession(database: Db, organizationId: string, id: string, now = new Date()) {
  if (!hasIdPrefix("checkoutSession", id)) throw notFound("checkout session");
  const row = await loaderFor(sqlPool(database)).load({ organizationId, id });
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
