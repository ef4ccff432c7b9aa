import { describe, expect, it } from "vitest";
import { db, sqlPool } from "@/lib/db/client";
import { ServiceError } from "@/lib/errors";
import { newId } from "@/lib/ids";
import { createTestOrganization } from "@/scripts/test-support/fixtures";
import { createCheckoutSession } from "./create-checkout-session";
import { getCheckoutSession } from "./get-checkout-session";

// Reads that arrive together share one statement: each must still get its own organization's
// session, and nothing of another's.

async function createSession(organizationId: string, amount: string) {
  const created = await createCheckoutSession(db(), {
    organizationId,
    request: { mode: "standalone", amount, currency: "USD", expiresInMinutes: 60 },
    idempotency: null,
  });
  return (created.body as { id: string }).id;
}

describe("getCheckoutSession", () => {
  it("answers reads that arrive together with one statement, each scoped to its organization", async () => {
    const [{ organization: a }, { organization: b }] = await Promise.all([
      createTestOrganization(),
      createTestOrganization(),
    ]);
    const [a1, a2, b1] = await Promise.all([
      createSession(a.id, "10.00"),
      createSession(a.id, "20.00"),
      createSession(b.id, "30.00"),
    ]);
    const reads: [organizationId: string, id: string][] = [
      [a.id, a1],
      [b.id, b1],
      [a.id, b1],
      [a.id, a2],
      [b.id, a1],
      [a.id, a1],
      [a.id, newId("checkoutSession")],
    ];
    const pool = sqlPool(db());
    let statements = 0;
    const count = () => {
      statements += 1;
    };
    pool.on("acquire", count);
    const results = await Promise.allSettled(
      reads.map(([organizationId, id]) => getCheckoutSession(db(), organizationId, id)),
    );
    pool.off("acquire", count);

    expect(statements).toBe(1);
    const outcome = (index: number) => {
      const result = results[index];
      if (result.status === "fulfilled") {
        const { session } = result.value;
        return { id: session.id, organizationId: session.organizationId, amount: session.amount.toString() };
      }
      const error = result.reason as ServiceError;
      return { status: error instanceof ServiceError ? error.status : "not a ServiceError" };
    };
    expect(reads.map((_, index) => outcome(index))).toEqual([
      { id: a1, organizationId: a.id, amount: "10" },
      { id: b1, organizationId: b.id, amount: "30" },
      { status: 404 },
      { id: a2, organizationId: a.id, amount: "20" },
      { status: 404 },
      { id: a1, organizationId: a.id, amount: "10" },
      { status: 404 },
    ]);
  });
});
