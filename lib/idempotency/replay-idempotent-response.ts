import type { Db } from "../db/client";
import { conflict } from "../errors";

export type StoredResponse = { status: number; body: unknown };
export type IdempotencyClaim = { organizationId: string; key: string; requestHash: string };
/** What a stored claim holds: the request it was made for and the response first sent. */
export type TakenClaim = { requestHash: string; responseStatus: number | null; responseBody: string | null };

/** The answer to `claim` from the claim `taken` that holds its key: the same response, or 409. */
export function replayTakenClaim(claim: IdempotencyClaim, taken: TakenClaim): StoredResponse {
  if (taken.requestHash !== claim.requestHash) {
    throw conflict(
      "idempotency_key_reused",
      "This Idempotency-Key was already used with a different request body. Use a new key for a new request.",
    );
  }
  return { status: taken.responseStatus as number, body: JSON.parse(taken.responseBody as string) };
}

/**
 * The stored answer for a claim that another request already made: the same response for the
 * same body, 409 for another. Called after an insert of the claim found the key taken, which in
 * PostgreSQL means the first request has committed (the insert waited for it).
 */
export async function replayIdempotentResponse(
  database: Db,
  claim: IdempotencyClaim,
): Promise<StoredResponse> {
  const taken = await database.idempotencyKey.findUniqueOrThrow({
    where: { organizationId_key: { organizationId: claim.organizationId, key: claim.key } },
  });
  return replayTakenClaim(claim, taken);
}
