import { createHash } from "node:crypto";
import type { Db, Tx } from "../db/client";
import { conflict } from "../errors";
import type { Prisma } from "../generated/prisma/client";

export type StoredResponse = { status: number; body: Prisma.InputJsonValue };
export type IdempotencyClaim = { organizationId: string; key: string; requestHash: string };

/** Keys are answered from storage for at least this long (decisions doc: at least 24 hours). */
export const idempotencyKeyRetentionMs = 48 * 60 * 60 * 1000;

function canonical(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(canonical);
  if (value !== null && typeof value === "object") {
    return Object.fromEntries(
      Object.keys(value)
        .sort()
        .map((key) => [key, canonical((value as Record<string, unknown>)[key])]),
    );
  }
  return value;
}

/** What "the same request" means: the same JSON body, whatever the key order or spacing. */
export function hashRequest(body: unknown): string {
  return createHash("sha256")
    .update(JSON.stringify(canonical(body)))
    .digest("hex");
}

/**
 * Runs `work` once per (organization, key). The claim row is inserted in the same transaction as
 * the work's writes: a concurrent request with the same key waits on the unique index until the
 * first commits, then reads its stored answer (409 if its body differs). If the work throws,
 * nothing is stored and the key may be used again.
 */
export async function runIdempotently(
  database: Db,
  claim: IdempotencyClaim | null,
  work: (tx: Tx) => Promise<StoredResponse>,
): Promise<StoredResponse & { replayed: boolean }> {
  return database.$transaction(
    async (tx) => {
      if (claim) {
        const inserted = await tx.$queryRaw<{ key: string }[]>`
          INSERT INTO "IdempotencyKey" ("organizationId", "key", "requestHash")
          VALUES (${claim.organizationId}, ${claim.key}, ${claim.requestHash})
          ON CONFLICT DO NOTHING
          RETURNING "key"`;
        if (inserted.length === 0) {
          const existing = await tx.idempotencyKey.findUniqueOrThrow({
            where: { organizationId_key: { organizationId: claim.organizationId, key: claim.key } },
          });
          if (existing.requestHash !== claim.requestHash) {
            throw conflict(
              "idempotency_key_reused",
              "This Idempotency-Key was already used with a different request body. Use a new key for a new request.",
            );
          }
          return {
            status: existing.responseStatus as number,
            body: JSON.parse(existing.responseBody as string) as Prisma.InputJsonValue,
            replayed: true,
          };
        }
      }
      const response = await work(tx);
      if (claim) {
        await tx.idempotencyKey.update({
          where: { organizationId_key: { organizationId: claim.organizationId, key: claim.key } },
          data: { responseStatus: response.status, responseBody: JSON.stringify(response.body) },
        });
      }
      return { ...response, replayed: false };
    },
    // Requests racing for one key queue on the unique index; give them room rather than a 500.
    { maxWait: 20_000, timeout: 20_000 },
  );
}

/** Forgets keys past retention (a periodic task). */
export async function purgeIdempotencyKeys(database: Db, now = new Date()): Promise<number> {
  const { count } = await database.idempotencyKey.deleteMany({
    where: { createdAt: { lt: new Date(now.getTime() - idempotencyKeyRetentionMs) } },
  });
  return count;
}
