import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { db } from "@/lib/db/client";
import { callRoute } from "@/scripts/test-support/call-route";
import { createTestOrganization } from "@/scripts/test-support/fixtures";
import { propertyRuns } from "@/scripts/test-support/property-runs";
import { POST } from "./route";

// Valid bodies, valid bodies with one field replaced by junk, and arbitrary JSON or text, so that
// many requests get deep into validation and some succeed.
const validBody = fc.record(
  {
    amount: fc
      .tuple(fc.integer({ min: 0, max: 99_999 }), fc.integer({ min: 0, max: 99 }))
      .filter(([units, cents]) => units + cents > 0)
      .map(([units, cents]) => `${units}.${String(cents).padStart(2, "0")}`),
    currency: fc.constantFrom("USD", "EUR", "GBP"),
    description: fc.string({ minLength: 1, maxLength: 200 }).filter((text) => text.trim().length > 0),
    customerEmail: fc.stringMatching(/^[a-z0-9]{1,20}@[a-z0-9]{1,20}\.[a-z]{2,6}$/),
    expiresInMinutes: fc.integer({ min: 5, max: 1440 }),
    metadata: fc.dictionary(
      fc.stringMatching(/^[a-z0-9_]{1,20}$/),
      fc.oneof(fc.string({ maxLength: 50 }), fc.integer(), fc.boolean(), fc.constant(null)),
      { maxKeys: 5 },
    ),
    successUrl: fc.webUrl(),
  },
  { requiredKeys: ["amount", "currency"] },
);
const junk = fc.oneof(
  fc.jsonValue({ maxDepth: 2 }),
  fc.constantFrom("0", "-1", "1e3", "1.005", "NaN", " 1", "usd", "javascript:alert(1)", "", 4, 1441, 7.5),
  fc.string({ maxLength: 1100 }),
);
const mutated = fc
  .tuple(
    validBody,
    fc.constantFrom(
      "amount",
      "currency",
      "description",
      "customerEmail",
      "expiresInMinutes",
      "metadata",
      "successUrl",
      "paylinkId",
      "lineItems",
    ),
    junk,
  )
  .map(([valid, field, value]) => ({ ...valid, [field]: value }));
const body = fc.oneof(
  { weight: 3, arbitrary: validBody },
  { weight: 4, arbitrary: mutated },
  { weight: 2, arbitrary: fc.jsonValue({ maxDepth: 3 }) },
  { weight: 1, arbitrary: fc.string() },
);
const headers = fc.record(
  {
    "idempotency-key": fc.oneof(
      { weight: 8, arbitrary: fc.stringMatching(/^[A-Za-z0-9_-]{16,40}$/) },
      { weight: 1, arbitrary: fc.string({ maxLength: 250 }) },
    ),
    "content-type": fc.oneof(
      { weight: 8, arbitrary: fc.constant("application/json") },
      {
        weight: 1,
        arbitrary: fc.constantFrom(
          "application/json; charset=utf-8",
          "text/plain",
          "application/x-www-form-urlencoded",
        ),
      },
    ),
  },
  // Mostly present, so valid bodies get through; absent ones come from the junk branches above.
  { requiredKeys: ["idempotency-key", "content-type"] },
);

describe("POST /api/checkout-sessions under random input", () => {
  it("never answers 5xx and only ever stores valid sessions", async () => {
    const { auth, organization } = await createTestOrganization();
    let created = 0;
    await fc.assert(
      fc.asyncProperty(body, headers, async (payload, extraHeaders) => {
        const before = await db().checkoutSession.count({ where: { organizationId: organization.id } });
        const response = await callRoute(POST, "/api/checkout-sessions", {
          headers: { ...extraHeaders, ...auth },
          body: typeof payload === "string" ? payload : JSON.stringify(payload),
        });
        expect(response.status).toBeLessThan(500);
        expect(response.json?.error ?? response.json).toBeDefined();
        const after = await db().checkoutSession.count({ where: { organizationId: organization.id } });
        if (response.status !== 200) {
          expect(after).toBe(before);
          expect(response.json.error.message.length).toBeGreaterThan(0);
          return;
        }
        if (response.headers.get("idempotent-replayed") !== "true") created += 1;
        // An independent check of what was stored, not the validator's own verdict.
        const session = await db().checkoutSession.findUniqueOrThrow({ where: { id: response.json.id } });
        expect(["USD", "EUR", "GBP"]).toContain(session.currency);
        expect(session.amount.gt(0)).toBe(true);
        expect(session.amount.decimalPlaces()).toBeLessThanOrEqual(2);
        const minutes = (session.expiresAt.getTime() - session.createdAt.getTime()) / 60_000;
        expect(minutes).toBeGreaterThanOrEqual(5);
        expect(minutes).toBeLessThanOrEqual(1440);
        expect((session.description ?? "").length).toBeLessThanOrEqual(1000);
        expect((session.merchantOrderId ?? "").length).toBeLessThanOrEqual(255);
        for (const url of [session.successUrl, session.cancelUrl])
          if (url) expect(url).toMatch(/^https?:\/\//);
        for (const value of Object.values(session.metadata as object)) {
          expect(value === null || ["string", "number", "boolean"].includes(typeof value)).toBe(true);
        }
      }),
      { numRuns: propertyRuns(2000) },
    );
    expect(await db().checkoutSession.count({ where: { organizationId: organization.id } })).toBe(created);
    // The generators are meant to reach success often; a run that never did would prove little.
    expect(created).toBeGreaterThan(40);
  }, 300_000);
});
