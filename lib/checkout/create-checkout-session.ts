import { type Db, sqlPool } from "../db/client";
import { preparedQuery } from "../db/prepared-query";
import type { Prisma } from "../generated/prisma/client";
import { type IdempotencyClaim, replayIdempotentResponse } from "../idempotency/replay-idempotent-response";
import { buildCheckoutSession } from "./build-checkout-session";
import type { CreateCheckoutSessionInput } from "./checkout-session-schemas";
import { serializeCheckoutSession } from "./serialize-checkout-session";

/**
 * Creates a checkout session (standalone or from a paylink), once per Idempotency-Key. The claim
 * (holding the response) and the session are inserted by one statement, so they commit together
 * and a concurrent request with the same key waits on the claim's unique index, then replays.
 */
export async function createCheckoutSession(
  database: Db,
  input: {
    organizationId: string;
    request: CreateCheckoutSessionInput;
    idempotency: IdempotencyClaim | null;
  },
  now = new Date(),
): Promise<{ status: number; body: unknown; replayed: boolean }> {
  const { request, organizationId } = input;
  const session = await buildCheckoutSession(database, organizationId, request, now);
  const { id } = session;
  const response = { status: 200, body: serializeCheckoutSession(session, now) };

  if (!input.idempotency) {
    await database.checkoutSession.create({
      data: { ...session, metadata: session.metadata as Prisma.InputJsonObject },
    });
    return { ...response, replayed: false };
  }
  const claim = input.idempotency;
  // One statement, on the pool directly and prepared: the hottest write of the API (see sqlPool).
  const { rows: inserted } = await preparedQuery(
    sqlPool(database),
    "create-checkout-session",
    `WITH claim AS (
       INSERT INTO "IdempotencyKey" ("organizationId", "key", "requestHash", "responseStatus", "responseBody", "createdAt")
       VALUES ($1, $2, $3, $4, $5, $6)
       ON CONFLICT DO NOTHING
       RETURNING 1
     )
     INSERT INTO "CheckoutSession" (
       "id", "organizationId", "status", "paylinkId", "amount", "currency", "description", "merchantOrderId",
       "customerEmail", "customerName", "clientReferenceId", "metadata", "successUrl", "cancelUrl",
       "expiresAt", "createdAt", "updatedAt", "recurringInterval", "recurringIntervalCount")
     SELECT $7, $1, 'OPEN', $8::uuid, $9::numeric, $10, $11, $12, $13, $14, $15, $16::jsonb, $17, $18, $19, $6, $6,
       $20::"RecurringInterval", $21::integer
     FROM claim
     RETURNING "id"`,
    [
      organizationId,
      claim.key,
      claim.requestHash,
      response.status,
      JSON.stringify(response.body),
      now,
      id,
      session.paylinkId,
      session.amount.toString(),
      session.currency,
      session.description,
      session.merchantOrderId,
      session.customerEmail,
      session.customerName,
      session.clientReferenceId,
      JSON.stringify(session.metadata),
      session.successUrl,
      session.cancelUrl,
      session.expiresAt,
      session.recurringInterval,
      session.recurringIntervalCount,
    ],
  );
  if (inserted.length === 1) return { ...response, replayed: false };
  return { ...(await replayIdempotentResponse(database, claim)), replayed: true };
}
