import type pg from "pg";
import { preparedQuery } from "../db/prepared-query";
import type { TakenClaim } from "../idempotency/replay-idempotent-response";

/** A new session with the idempotency claim that holds its response, stored together. */
export type ClaimedSession = {
  organizationId: string;
  key: string;
  requestHash: string;
  responseStatus: number;
  /** The exact JSON text of the response, replayed byte for byte. */
  responseBody: string;
  now: Date;
  id: string;
  paylinkId: string | null;
  amount: string;
  currency: string;
  description: string | null;
  merchantOrderId: string | null;
  customerEmail: string | null;
  customerName: string | null;
  clientReferenceId: string | null;
  /** JSON text. */
  metadata: string;
  successUrl: string | null;
  cancelUrl: string | null;
  expiresAt: Date;
  recurringInterval: string | null;
  recurringIntervalCount: number | null;
};

// The columns in the statement's order, each sent as one array: a batch of any size is the same
// prepared statement.
const columns = [
  ["organizationId", "text"],
  ["key", "text"],
  ["requestHash", "text"],
  ["responseStatus", "int"],
  ["responseBody", "text"],
  ["now", "timestamptz"],
  ["id", "text"],
  ["paylinkId", "uuid"],
  ["amount", "numeric"],
  ["currency", "text"],
  ["description", "text"],
  ["merchantOrderId", "text"],
  ["customerEmail", "text"],
  ["customerName", "text"],
  ["clientReferenceId", "text"],
  ["metadata", "jsonb"],
  ["successUrl", "text"],
  ["cancelUrl", "text"],
  ["expiresAt", "timestamptz"],
  ["recurringInterval", "text"],
  ["recurringIntervalCount", "int"],
] as const satisfies readonly (readonly [keyof ClaimedSession, string])[];

// Claims first, in the batch's order (sorted by key, so two batches that share a reused key take
// its index entry in the same order and cannot deadlock); a session only where its claim was new.
// A concurrent claim of the same key waits for the first to commit, then finds it taken. For a key
// already taken, the claim that holds it comes back too, so a retry is answered without a second
// round trip; the statement's snapshot cannot see a claim committed while it ran (then it is null).
const statement = `WITH input AS (
  SELECT * FROM unnest(${columns.map(([, type], index) => `$${index + 1}::${type}[]`).join(", ")})
    WITH ORDINALITY AS t(${columns.map(([name]) => `"${name}"`).join(", ")}, "position")
), claim AS (
  INSERT INTO "IdempotencyKey" ("organizationId", "key", "requestHash", "responseStatus", "responseBody", "createdAt")
  SELECT "organizationId", "key", "requestHash", "responseStatus", "responseBody", "now" FROM input ORDER BY "position"
  ON CONFLICT DO NOTHING
  RETURNING "organizationId", "key"
), session AS (
  INSERT INTO "CheckoutSession" (
    "id", "organizationId", "status", "paylinkId", "amount", "currency", "description", "merchantOrderId",
    "customerEmail", "customerName", "clientReferenceId", "metadata", "successUrl", "cancelUrl",
    "expiresAt", "createdAt", "updatedAt", "recurringInterval", "recurringIntervalCount")
  SELECT input."id", input."organizationId", 'OPEN', "paylinkId", "amount", "currency", "description",
    "merchantOrderId", "customerEmail", "customerName", "clientReferenceId", "metadata", "successUrl",
    "cancelUrl", "expiresAt", "now", "now", "recurringInterval"::"RecurringInterval", "recurringIntervalCount"
  FROM input JOIN claim ON claim."organizationId" = input."organizationId" AND claim."key" = input."key"
  RETURNING "id"
)
SELECT input."id", session."id" IS NOT NULL AS "inserted",
  taken."requestHash", taken."responseStatus", taken."responseBody"
FROM input
LEFT JOIN session ON session."id" = input."id"
LEFT JOIN "IdempotencyKey" taken ON session."id" IS NULL
  AND taken."organizationId" = input."organizationId" AND taken."key" = input."key"`;

/** Stored (true), or the claim that already held the key: null if this statement could not see it. */
export type ClaimOutcome = true | TakenClaim | null;
type Waiting = { session: ClaimedSession; settle: (outcome: Promise<ClaimOutcome>) => void };
// `claimed`: the keys of the batches in flight. A key claimed again waits until its batch has
// settled, so the claim that came first is the one stored, on a loaded machine too.
type Batches = { waiting: Waiting[]; inFlight: number; claimed: Set<string>; scheduled: boolean };

// Sessions created at the same moment share one statement: under load the round trip to
// PostgreSQL (a socket write and read, the parse, the pool) is most of a create's cost. A few
// batches may be in flight at once, so an idle moment adds no wait; the pool's other connections
// stay free for everything else.
const maxInFlight = 4;
const maxBatch = 64;
const batchesOf = new WeakMap<pg.Pool, Batches>();

const claimOf = (waiting: Waiting) => `${waiting.session.organizationId}\n${waiting.session.key}`;

type Row = { id: string; inserted: boolean } & {
  [column in keyof TakenClaim]: TakenClaim[column] | null;
};

async function insert(pool: pg.Pool, sessions: ClaimedSession[]): Promise<Map<string, ClaimOutcome>> {
  const values = columns.map(([name]) => sessions.map((session) => session[name]));
  const { rows } = await preparedQuery<Row>(pool, "insert-claimed-sessions", statement, values);
  return new Map(
    rows.map(({ id, inserted, requestHash, responseStatus, responseBody }) => [
      id,
      inserted || (requestHash === null ? null : { requestHash, responseStatus, responseBody }),
    ]),
  );
}

const outcomeOf = (outcomes: Map<string, ClaimOutcome>, session: ClaimedSession) => {
  const outcome = outcomes.get(session.id);
  if (outcome === undefined) throw new Error(`no outcome for checkout session ${session.id}`);
  return outcome;
};

/** The claim that now holds a session's key, where known: its own once stored. */
function holderOf(session: ClaimedSession, outcome: ClaimOutcome): TakenClaim | null {
  if (outcome !== true) return outcome;
  const { requestHash, responseStatus, responseBody } = session;
  return { requestHash, responseStatus, responseBody };
}

/** Sends a batch; resolves with the committed claim of each of its keys that is known. */
async function send(pool: pg.Pool, batch: Waiting[]): Promise<Map<string, TakenClaim>> {
  const holders = new Map<string, TakenClaim>();
  const settled = (waiting: Waiting, outcome: ClaimOutcome) => {
    const holder = holderOf(waiting.session, outcome);
    if (holder) holders.set(claimOf(waiting), holder);
    return outcome;
  };
  // Code-unit order, the same on every instance whatever its locale.
  const sorted = [...batch].sort((a, b) => (claimOf(a) < claimOf(b) ? -1 : claimOf(a) > claimOf(b) ? 1 : 0));
  try {
    const inserted = await insert(
      pool,
      sorted.map((waiting) => waiting.session),
    );
    for (const waiting of batch) {
      waiting.settle(Promise.resolve(settled(waiting, outcomeOf(inserted, waiting.session))));
    }
  } catch (error) {
    if (batch.length === 1) {
      batch[0].settle(Promise.reject(error));
      return holders;
    }
    // One session the database refuses must not fail the others: each is sent again alone.
    const alone = batch.map((waiting) => {
      const inserted = insert(pool, [waiting.session]).then((outcomes) =>
        settled(waiting, outcomeOf(outcomes, waiting.session)),
      );
      waiting.settle(inserted);
      return inserted;
    });
    // Its keys stay held until these have settled too.
    await Promise.allSettled(alone);
  }
  return holders;
}

function schedule(pool: pg.Pool, batches: Batches) {
  if (batches.scheduled || batches.inFlight >= maxInFlight || batches.waiting.length === 0) return;
  batches.scheduled = true;
  setImmediate(() => {
    batches.scheduled = false;
    // A key claimed twice at once waits until the batch holding its first claim has settled.
    const batch: Waiting[] = [];
    const later: Waiting[] = [];
    const keys: string[] = [];
    for (const waiting of batches.waiting) {
      const key = claimOf(waiting);
      if (batch.length < maxBatch && !batches.claimed.has(key)) {
        batches.claimed.add(key);
        keys.push(key);
        batch.push(waiting);
      } else {
        later.push(waiting);
      }
    }
    batches.waiting = later;
    // Every waiting key is in flight: the batch that settles it schedules the next.
    if (batch.length === 0) return;
    batches.inFlight += 1;
    void send(pool, batch)
      .then((holders) => {
        // Retries of a key that came in meanwhile get the committed claim that holds it, as the
        // database would give them, without a round trip each. Where the claim is not known
        // (this batch failed, or could not see it), they go to the database themselves.
        batches.waiting = batches.waiting.filter((waiting) => {
          const holder = holders.get(claimOf(waiting));
          if (holder) waiting.settle(Promise.resolve(holder));
          return !holder;
        });
      })
      .finally(() => {
        batches.inFlight -= 1;
        for (const key of keys) batches.claimed.delete(key);
        schedule(pool, batches);
      });
    schedule(pool, batches);
  });
}

/**
 * Stores the session and its claim in one statement, with any others created at the same moment.
 * Resolves true if stored; if the key was already claimed (then nothing was stored), the claim
 * that holds it, or null where the statement could not see it.
 */
export function insertClaimedSession(pool: pg.Pool, session: ClaimedSession): Promise<ClaimOutcome> {
  let batches = batchesOf.get(pool);
  if (!batches) {
    batches = { waiting: [], inFlight: 0, claimed: new Set(), scheduled: false };
    batchesOf.set(pool, batches);
  }
  const queue = batches;
  return new Promise<ClaimOutcome>((resolve, reject) => {
    queue.waiting.push({ session, settle: (inserted) => inserted.then(resolve, reject) });
    schedule(pool, queue);
  });
}
