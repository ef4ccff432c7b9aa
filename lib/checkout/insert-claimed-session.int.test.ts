import type pg from "pg";
import { describe, expect, inject, it } from "vitest";
import { db, sqlPool } from "@/lib/db/client";
import { newId, randomBase62 } from "@/lib/ids";
import { createTestOrganization } from "@/scripts/test-support/fixtures";
import { parseCreateCheckoutSession } from "./checkout-session-schemas";
import { createCheckoutSession } from "./create-checkout-session";
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

const takenBy = (first: ClaimedSession) => ({
  requestHash: first.requestHash,
  responseStatus: first.responseStatus,
  responseBody: first.responseBody,
});

/** This file's pool, with `beforeInsert` awaited before each batched insert statement is sent. */
function poolSeeingInserts(beforeInsert: () => Promise<void>) {
  const pool = sqlPool(db());
  return Object.create(pool, {
    query: {
      value: async (query: string | pg.QueryConfig, values?: unknown[]) => {
        if ((typeof query === "string" ? query : query.text).includes('INSERT INTO "IdempotencyKey"')) {
          await beforeInsert();
        }
        return pool.query(query, values);
      },
    },
  }) as typeof pool;
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
    // The second gets the first's claim back from its own statement: a retry needs no second read.
    expect(inserted).toEqual([true, takenBy(first)]);
    const stored = await db().checkoutSession.findMany({ where: { organizationId: organization.id } });
    expect(stored.map((row) => row.id)).toEqual([first.id]);
  });

  it("stores the claim that came first when its batch is slow to reach the database", async () => {
    const { organization } = await createTestOrganization();
    const key = `k-${randomBase62(20)}`;
    const [first, second] = [session(organization.id, key), session(organization.id, key)];
    // The same database, but the first batch's insert is held back for half a second: the second
    // claim of its key must wait for that batch rather than race past it.
    let inserts = 0;
    const slowFirstInsert = poolSeeingInserts(async () => {
      inserts += 1;
      if (inserts === 1) await new Promise((resolve) => setTimeout(resolve, 500));
    });
    const inserted = await Promise.all(
      [first, second].map((each) => insertClaimedSession(slowFirstInsert, each)),
    );
    expect(inserted).toEqual([true, takenBy(first)]);
    // The second was answered with the first's committed claim, as the database would have.
    expect(inserts).toBe(1);
    const stored = await db().checkoutSession.findMany({ where: { organizationId: organization.id } });
    expect(stored.map((row) => row.id)).toEqual([first.id]);
  });

  it("answers 32 claims of one key with one statement: one stored, the rest get its claim", async () => {
    const { organization } = await createTestOrganization();
    const key = `k-${randomBase62(20)}`;
    const claims = Array.from({ length: 32 }, () => session(organization.id, key));
    // One of them for another body: the caller answers it 409 from the claim it gets back.
    claims[7] = { ...claims[7], requestHash: "another body" };
    let statements = 0;
    const counted = poolSeeingInserts(async () => {
      statements += 1;
    });
    const outcomes = await Promise.all(claims.map((each) => insertClaimedSession(counted, each)));
    expect(outcomes).toEqual([true, ...Array(31).fill(takenBy(claims[0]))]);
    expect(statements).toBe(1);
    expect(await db().checkoutSession.count({ where: { organizationId: organization.id } })).toBe(1);
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

// A claim committed by another transaction while the statement waited on its key: the statement's
// snapshot cannot see it, so it answers null and the caller reads the claim. Two sessions at once:
// the embedded database multiplexes its connections into one.
if (inject("testDatabase").mode === "server") {
  describe("insertClaimedSession beside another transaction", () => {
    it("answers null for a key whose claim committed while the statement ran", async () => {
      const { organization } = await createTestOrganization();
      const late = session(organization.id);
      const holder = await sqlPool(db()).connect();
      try {
        await holder.query("BEGIN");
        await holder.query(
          `INSERT INTO "IdempotencyKey" ("organizationId", "key", "requestHash") VALUES ($1, $2, 'other')`,
          [organization.id, late.key],
        );
        const outcome = insertClaimedSession(sqlPool(db()), late);
        await untilAnInsertWaits(holder);
        await holder.query("COMMIT");
        expect(await outcome).toBeNull();
      } finally {
        holder.release();
      }
      expect(await db().checkoutSession.count({ where: { organizationId: organization.id } })).toBe(0);
    });

    it("replays that claim all the same when a create finds it so", async () => {
      const { organization } = await createTestOrganization();
      const key = `k-${randomBase62(20)}`;
      const holder = await sqlPool(db()).connect();
      try {
        await holder.query("BEGIN");
        await holder.query(
          `INSERT INTO "IdempotencyKey" ("organizationId", "key", "requestHash", "responseStatus", "responseBody")
           VALUES ($1, $2, 'same', 200, '{"id":"ycs_first"}')`,
          [organization.id, key],
        );
        const created = createCheckoutSession(db(), {
          organizationId: organization.id,
          request: parseCreateCheckoutSession({ amount: "5.00", currency: "USD" }),
          idempotency: { organizationId: organization.id, key, requestHash: "same" },
        });
        await untilAnInsertWaits(holder);
        await holder.query("COMMIT");
        expect(await created).toEqual({ status: 200, body: { id: "ycs_first" }, replayed: true });
      } finally {
        holder.release();
      }
      expect(await db().checkoutSession.count({ where: { organizationId: organization.id } })).toBe(0);
    });
  });
}

/** Resolves once a statement of this test's database waits on a lock (the held key's entry). */
async function untilAnInsertWaits(holder: pg.PoolClient) {
  for (let waited = 0; ; waited += 20) {
    const { rows } = await holder.query(
      `SELECT 1 FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'`,
    );
    if (rows.length > 0) return;
    if (waited > 30_000) throw new Error("no insert waited on the held key");
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
