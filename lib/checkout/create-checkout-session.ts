import { type Db, sqlPool } from "../db/client";
import type { Prisma } from "../generated/prisma/client";
import {
  type IdempotencyClaim,
  replayIdempotentResponse,
  replayTakenClaim,
} from "../idempotency/replay-idempotent-response";
import { buildCheckoutSession } from "./build-checkout-session";
import type { CreateCheckoutSessionInput } from "./checkout-session-schemas";
import { insertClaimedSession } from "./insert-claimed-session";
import { serializeCheckoutSession } from "./serialize-checkout-session";

/**
 * Creates a checkout session (standalone or from a paylink), once per Idempotency-Key. The claim
 * (holding the response) and the session are inserted by one statement (shared with sessions
 * created at the same moment), so they commit together, and a concurrent request with the same
 * key waits on the claim's unique index, then replays; a retry gets the stored claim back from
 * that same statement.
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
  const response = { status: 200, body: serializeCheckoutSession(session, now) };

  if (!input.idempotency) {
    await database.checkoutSession.create({
      data: { ...session, metadata: session.metadata as Prisma.InputJsonObject },
    });
    return { ...response, replayed: false };
  }
  const claim = input.idempotency;
  const outcome = await insertClaimedSession(sqlPool(database), {
    ...session,
    ...claim,
    responseStatus: response.status,
    responseBody: JSON.stringify(response.body),
    now,
    amount: session.amount.toString(),
    metadata: JSON.stringify(session.metadata),
  });
  if (outcome === true) return { ...response, replayed: false };
  // The claim that holds the key came back with the insert, unless it committed while that ran.
  const replay = outcome ? replayTakenClaim(claim, outcome) : await replayIdempotentResponse(database, claim);
  return { ...replay, replayed: true };
}
