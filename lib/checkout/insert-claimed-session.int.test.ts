import type pg from "pg";
import { describe, expect, it } from "vitest";
import { db, sqlPool } from "@/lib/db/client";
import { newId, randomBase62 } from "@/lib/ids";
import { createTestOrganization } from "@/scripts/test-support/fixtures";
import { type ClaimedSession, insertClaimedSession } from "./insert-claimed-session";

// Sessions created at the same moment share one statement: each must still be stored exactly
// once, with its own claim, and one the database refuses must not take the others down.

function session(organizationId: string, key = `k-${randomBase62(20)}`): ClaimedSession {
  const now = new Date();
  const id = newId("checkoutSession");
  return {
    organizationId,
    key,
    requestHash: `hash-${key}`,
    responseStatus: 200,
    responseBody: JSON.stringify({ id }),
    now,
    id,
    paylinkId: null,
    amount: "10.50",
    currency: "USD",
    description: 'it\'s "quoted", with a \\ backslash',
    merchantOrderId: null,
    customerEmail: null,
    customerName: null,
    clientReferenceId: null,
    metadata: JSON.stringify({ note: 'a "quoted" {brace}, a comma', n: 1 }),
    successUrl: null,
    cancelUrl: null,
    expiresAt: new Date(now.getTime() + 60_000),
    recurringInterval: "month",
    recurringIntervalCount: 1,
  };
}

describe("insertClaimedSession", () => {
  it("stores 200 sessions started at once, each once, with its claim and its values intact", async () => {
    const { organization } = await createTestOrganization();
    const sessions = Array.from({ length: 200 }, () => session(organization.id));
    const inserted = await Promise.all(sessions.map((each) => insertClaimedSession(sqlPool(db()), each)));
    expect(inserted).toEqual(Array(200).fill(true));
    const stored = await db().checkoutSession.findMany({ where: { organizationId: organization.id } });
    expect(stored.map((row) => row.id).sort()).toEqual(sessions.map((each) => each.id).sort());
    expect(stored[0]).toMatchObject({
      status: "OPEN",
      currency: "USD",
      description: sessions[0].description,
      metadata: { note: 'a "quoted" {brace}, a comma', n: 1 },
      recurringInterval: "month",
      recurringIntervalCount: 1,
    });
    expect(stored[0].amount.toString()).toBe("10.5");
    const claims = await db().idempotencyKey.findMany({ where: { organizationId: organization.id } });
    expect(claims.map((claim) => claim.key).sort()).toEqual(sessions.map((each) => each.key).sort());
  });

  it("stores one session for a key claimed twice at once, and says which one", async () => {
    const { organization } = await createTestOrganization();
    const key = `k-${randomBase62(20)}`;
    const [first, second] = [session(organization.id, key), session(organization.id, key)];
    const inserted = await Promise.all(
      [first, second].map((each) => insertClaimedSession(sqlPool(db()), each)),
    );
    expect(inserted).toEqual([true, false]);
    const stored = await db().checkoutSession.findMany({ where: { organizationId: organization.id } });
    expect(stored.map((row) => row.id)).toEqual([first.id]);
  });

  it("stores the claim that came first when its batch is slow to reach the database", async () => {
    const { organization } = await createTestOrganization();
    const key = `k-${randomBase62(20)}`;
    const [first, second] = [session(organization.id, key), session(organization.id, key)];
    // The same database, but the first batch's insert is held back for half a second: the second
    // claim of its key must wait for that batch rather than race past it.
    const pool = sqlPool(db());
    let inserts = 0;
    const slowFirstInsert = Object.create(pool, {
      query: {
        value: async (query: string | pg.QueryConfig, values?: unknown[]) => {
          const text = typeof query === "string" ? query : query.text;
          if (text.includes('INSERT INTO "IdempotencyKey"') && ++inserts === 1) {
            await new Promise((resolve) => setTimeout(resolve, 500));
          }
          return pool.query(query, values);
        },
      },
    }) as typeof pool;
    const inserted = await Promise.all(
      [first, second].map((each) => insertClaimedSession(slowFirstInsert, each)),
    );
    expect(inserted).toEqual([true, false]);
    expect(inserts).toBe(2);
    const stored = await db().checkoutSession.findMany({ where: { organizationId: organization.id } });
    expect(stored.map((row) => row.id)).toEqual([first.id]);
  });

  it("fails only the session the database refuses, when others are stored beside it", async () => {
    const { organization } = await createTestOrganization();
    const good = Array.from({ length: 5 }, () => session(organization.id));
    // No such organization: the foreign key refuses this one row.
    const orphan = session(`org_${randomBase62(24)}`);
    const results = await Promise.allSettled(
      [...good, orphan].map((each) => insertClaimedSession(sqlPool(db()), each)),
    );
    expect(results.slice(0, 5)).toEqual(Array(5).fill({ status: "fulfilled", value: true }));
    expect(results[5].status).toBe("rejected");
    expect(await db().checkoutSession.count({ where: { organizationId: organization.id } })).toBe(5);
    expect(await db().idempotencyKey.count({ where: { organizationId: orphan.organizationId } })).toBe(0);
  });
});
