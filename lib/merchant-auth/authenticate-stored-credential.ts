import { type CredentialCache, credentialCache } from "../credential-cache/credential-cache";
import { hashSecret } from "../crypto/tokens";
import { type Db, sqlPool } from "../db/client";
import type { MerchantCaller } from "./merchant-caller";

// Writing last-used on every request would turn each read into a write; once a minute is enough
// for "last used" to be useful.
const lastUsedResolutionMs = 60_000;

// Every authenticated request runs one of these lookups, so they skip the ORM (see sqlPool).
// Revoked credentials are simply not found: unknown and revoked get the same answer. An agent
// credential also ends with its approver's authority: one whose approver is no longer an owner of
// its organization is not found either (removal also revokes it: lib/organizations/remove-member.ts),
// nor one with no approver at all (its user deleted, or a row written by hand): no owner stands
// behind it.
const stores = {
  api_key: {
    table: "ApiKey",
    select: `SELECT c."id", c."organizationId", c."lastUsedAt", 'WRITE' AS "access", c."name", o."apiVersion"
               FROM "ApiKey" c JOIN "Organization" o ON o."id" = c."organizationId"
              WHERE c."hash" = $1 AND c."revokedAt" IS NULL`,
  },
  agent: {
    table: "AgentCredential",
    select: `SELECT c."id", c."organizationId", c."lastUsedAt", c."access"::text AS "access",
                    c."agentName" AS "name", o."apiVersion"
               FROM "AgentCredential" c JOIN "Organization" o ON o."id" = c."organizationId"
              WHERE c."hash" = $1 AND c."revokedAt" IS NULL
                AND EXISTS (
                      SELECT 1 FROM "Membership" m
                       WHERE m."organizationId" = c."organizationId" AND m."userId" = c."createdByUserId"
                         AND m."role" = 'OWNER')`,
  },
} as const;

type Row = {
  id: string;
  organizationId: string;
  lastUsedAt: Date | null;
  access: "READ" | "WRITE";
  name: string;
  apiVersion: string;
};

/**
 * Resolves an API key or agent credential (already shape-checked) to its caller, or null. `cache`
 * is the process's; tests pass others to play several instances.
 */
export async function authenticateStoredCredential(
  database: Db,
  kind: keyof typeof stores,
  secret: string,
  cache: CredentialCache = credentialCache(),
): Promise<MerchantCaller | null> {
  const pool = sqlPool(database);
  const hash = hashSecret(secret);
  // Mostly from memory: revocation clears every instance's cache before it returns.
  const row = await cache.read(`${kind}:${hash}`, async () => {
    const { rows } = await pool.query<Row>(stores[kind].select, [hash]);
    return rows[0] ?? null;
  });
  if (!row) return null;
  const now = new Date();
  if (!row.lastUsedAt || now.getTime() - row.lastUsedAt.getTime() > lastUsedResolutionMs) {
    // Noted on the (possibly cached) row first, so concurrent requests do not write it again.
    row.lastUsedAt = now;
    await pool.query(`UPDATE "${stores[kind].table}" SET "lastUsedAt" = $1 WHERE "id" = $2`, [now, row.id]);
  }
  return {
    organizationId: row.organizationId,
    credential: { kind, id: row.id },
    access: row.access === "READ" ? "read" : "write",
    // An API key is the organization's own server; an agent credential was approved by an owner
    // for its access, and what moves money still needs an owner (lib/authority/operations.ts).
    role: "owner",
    name: row.name,
    apiVersion: row.apiVersion,
  };
}
