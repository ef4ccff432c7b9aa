import { describe, expect, it } from "vitest";
import { db } from "@/lib/db/client";
import { purgeIdempotencyKeys } from "@/lib/idempotency/purge-idempotency-keys";
import { newId } from "@/lib/ids";
import { createTestOrganization } from "@/scripts/test-support/fixtures";
import { expireCheckoutSessions } from "./expire-checkout-sessions";

describe("periodic clean-up", () => {
  it("expires open and processing sessions past expiresAt, and nothing else", async () => {
    const { organization } = await createTestOrganization();
    const now = new Date("2026-06-01T12:00:00Z");
    const make = (status: "OPEN" | "PROCESSING" | "COMPLETED", expiresAt: Date) =>
      db().checkoutSession.create({
        data: {
          id: newId("checkoutSession"),
          organizationId: organization.id,
          status,
          amount: "1",
          currency: "USD",
          expiresAt,
        },
      });
    const past = new Date(now.getTime() - 1);
    const future = new Date(now.getTime() + 60_000);
    const rows = await Promise.all([
      make("OPEN", past),
      make("PROCESSING", past),
      make("COMPLETED", past),
      make("OPEN", future),
    ]);
    expect(await expireCheckoutSessions(db(), now)).toBe(2);
    const statuses = await Promise.all(
      rows.map((row) => db().checkoutSession.findUniqueOrThrow({ where: { id: row.id } })),
    );
    expect(statuses.map((row) => row.status)).toEqual(["EXPIRED", "EXPIRED", "COMPLETED", "OPEN"]);
  });

  it("forgets idempotency keys after 48 hours", async () => {
    const { organization } = await createTestOrganization();
    const now = new Date();
    await db().idempotencyKey.createMany({
      data: [
        {
          organizationId: organization.id,
          key: "old-key-000000000",
          requestHash: "h",
          createdAt: new Date(now.getTime() - 49 * 3_600_000),
        },
        {
          organizationId: organization.id,
          key: "recent-key-0000000",
          requestHash: "h",
          createdAt: new Date(now.getTime() - 47 * 3_600_000),
        },
      ],
    });
    expect(await purgeIdempotencyKeys(db(), now)).toBe(1);
    expect(
      (await db().idempotencyKey.findMany({ where: { organizationId: organization.id } })).map(
        (row) => row.key,
      ),
    ).toEqual(["recent-key-0000000"]);
  });
});
