import { type Db, sqlPool } from "../db/client";
import { invalidRequest, notFound } from "../errors";
import { type CheckoutSession, Prisma } from "../generated/prisma/client";
import { type IdempotencyClaim, replayIdempotentResponse } from "../idempotency/replay-idempotent-response";
import { newId } from "../ids";
import type { CreateCheckoutSessionInput } from "./checkout-session-schemas";
import { serializeCheckoutSession } from "./serialize-checkout-session";

const sessionIdPlaceholder = "{CHECKOUT_SESSION_ID}";

async function priceOf(database: Db, organizationId: string, request: CreateCheckoutSessionInput) {
  if (request.mode === "standalone") {
    return {
      amount: request.amount,
      currency: request.currency,
      description: request.description ?? null,
      paylinkId: null,
      recurringInterval: request.recurring?.interval ?? null,
      recurringIntervalCount: request.recurring?.intervalCount ?? null,
    };
  }
  const paylink = await database.paylink.findFirst({ where: { id: request.paylinkId, organizationId } });
  if (!paylink) throw notFound("paylink", "paylinkId");
  if (!paylink.enabled) {
    throw invalidRequest(
      "paylink_disabled",
      "This paylink is disabled; enable it or use another.",
      "paylinkId",
    );
  }
  return {
    amount: paylink.amount.toString(),
    currency: paylink.currency,
    description: paylink.description ?? paylink.name,
    paylinkId: paylink.id,
    recurringInterval: paylink.recurringInterval,
    recurringIntervalCount: paylink.recurringIntervalCount,
  };
}

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
  const price = await priceOf(database, organizationId, request);
  const id = newId("checkoutSession");
  const session: CheckoutSession = {
    id,
    organizationId,
    status: "OPEN",
    paylinkId: price.paylinkId,
    amount: new Prisma.Decimal(price.amount),
    currency: price.currency,
    description: price.description,
    merchantOrderId: request.merchantOrderId ?? null,
    customerEmail: request.customerEmail ?? null,
    customerName: request.customerName ?? null,
    clientReferenceId: request.clientReferenceId ?? null,
    metadata: request.metadata ?? {},
    successUrl: request.successUrl?.replaceAll(sessionIdPlaceholder, id) ?? null,
    cancelUrl: request.cancelUrl?.replaceAll(sessionIdPlaceholder, id) ?? null,
    recurringInterval: price.recurringInterval,
    recurringIntervalCount: price.recurringIntervalCount,
    expiresAt: new Date(now.getTime() + request.expiresInMinutes * 60_000),
    createdAt: now,
    updatedAt: now,
  };
  const response = { status: 200, body: serializeCheckoutSession(session, now) };

  if (!input.idempotency) {
    await database.checkoutSession.create({
      data: { ...session, metadata: session.metadata as Prisma.InputJsonObject },
    });
    return { ...response, replayed: false };
  }
  const claim = input.idempotency;
  // One statement, on the pool directly: the hottest write of the API (see sqlPool).
  const { rows: inserted } = await sqlPool(database).query(
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
      price.amount,
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
