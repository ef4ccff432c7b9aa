import { describe, expect, it } from "vitest";
import { db } from "@/lib/db/client";
import { Prisma } from "@/lib/generated/prisma/client";
import { createOrganization } from "@/lib/organizations/create-organization";
import { insertRows } from "./insert-rows";

describe("insertRows", () => {
  it("stores every row in one statement and returns them typed as Prisma reads them", async () => {
    const { organization } = await createOrganization(db(), { name: "Rows", ownerEmail: "rows@example.com" });
    const expiresAt = new Date("2026-12-01T10:00:00.123Z");
    const rows = [1, 2].map((n) => ({
      id: `cs_rows_${n}`,
      organizationId: organization.id,
      status: "OPEN",
      amount: new Prisma.Decimal("12345678.123456789012345678"),
      currency: "EUR",
      description: `Order ${n}`,
      metadata: { order: n, note: 'it\'s "quoted"' },
      expiresAt,
      updatedAt: new Date(),
    }));
    const stored = await db().$transaction((tx) =>
      insertRows<{ id: string; amount: Prisma.Decimal; expiresAt: Date; createdAt: Date }>(
        tx,
        "CheckoutSession",
        rows,
      ),
    );
    expect(stored.map((row) => row.id)).toEqual(["cs_rows_1", "cs_rows_2"]);
    expect(stored[0].amount.toFixed()).toBe("12345678.123456789012345678");
    expect(stored[0].expiresAt).toEqual(expiresAt);
    expect(stored[0].createdAt).toBeInstanceOf(Date);
    const read = await db().checkoutSession.findUniqueOrThrow({ where: { id: "cs_rows_2" } });
    expect(read).toMatchObject({
      status: "OPEN",
      currency: "EUR",
      description: "Order 2",
      metadata: { order: 2, note: 'it\'s "quoted"' },
      expiresAt,
    });
    expect(read.amount.toFixed()).toBe("12345678.123456789012345678");
  });

  it.each([
    ["a column name that is not an identifier", { 'id" text); DROP TABLE "Event"; --': "x" }],
    ["an empty column name", { "": "x" }],
  ])("refuses %s and writes nothing", async (_, row) => {
    const before = await db().event.count();
    await expect(db().$transaction((tx) => insertRows(tx, "Event", [row]))).rejects.toThrow(/not a column/);
    expect(await db().event.count()).toBe(before);
  });

  it("inserts nothing for no rows", async () => {
    await expect(db().$transaction((tx) => insertRows(tx, "Event", []))).resolves.toEqual([]);
  });
});
