// The x402 settler's lease is kept by the database's clock alone: with the app's clock ten minutes
// off it either way, a live settler keeps its row and a lease handed back is taken over at once.
import { randomBytes } from "node:crypto";
import { afterEach, describe, expect, it, vi } from "vitest";
import { db } from "@/lib/db/client";
import {
  createTestInvoice,
  createTestOrganization,
  createTestX402Settlement,
} from "@/scripts/test-support/fixtures";
import { lapsedLease, renewX402Lease, takeOverStaleX402Settlement } from "./x402-settler-lease";

async function settlingRow() {
  const { organization } = await createTestOrganization();
  const invoice = await createTestInvoice(organization.id, { amount: "1", status: "AWAITING_PAYMENT" });
  return createTestX402Settlement(invoice, {
    asset: `0x${randomBytes(20).toString("hex")}`,
    amount: "1000000",
  });
}

const skews: [string, number][] = [
  ["behind", -600_000],
  ["ahead", 600_000],
];

afterEach(() => {
  vi.useRealTimers();
});

describe("the x402 settler's lease, the app's clock off the database's", () => {
  it.each(skews)("renewed with the app's clock %s: the live settler keeps its row", async (_name, skew) => {
    const row = await settlingRow();
    vi.useFakeTimers({ toFake: ["Date"], now: Date.now() + skew });
    await renewX402Lease(db(), row.id);
    expect(await takeOverStaleX402Settlement(db(), row.id)).toBeUndefined();
  });

  it.each(skews)(
    "handed back with the app's clock %s: the next copy takes it over at once",
    async (_name, skew) => {
      const row = await settlingRow();
      vi.useFakeTimers({ toFake: ["Date"], now: Date.now() + skew });
      await db().x402Settlement.update({ where: { id: row.id }, data: { updatedAt: lapsedLease() } });
      expect((await takeOverStaleX402Settlement(db(), row.id))?.id).toBe(row.id);
    },
  );
});
