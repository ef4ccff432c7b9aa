import { describe, expect, it } from "vitest";
import { db } from "@/lib/db/client";
import { ServiceError } from "@/lib/errors";
import { newId } from "@/lib/ids";
import { createTestOrganization, createTestSweep } from "@/scripts/test-support/fixtures";
import { getSettlementOverview } from "./get-settlement-overview";
import { retrySweep } from "./retry-sweep";

const sweepIn = (organizationId: string, status: "FAILED" | "CONFIRMED" | "SUBMITTED") =>
  createTestSweep(organizationId, { status });

describe("retrySweep", () => {
  it("puts a failed sweep back to PENDING and clears its reason", async () => {
    const { organization } = await createTestOrganization();
    const sweep = await sweepIn(organization.id, "FAILED");
    expect(await retrySweep(db(), organization.id, { sweepId: sweep.id })).toEqual({
      id: sweep.id,
      status: "PENDING",
    });
    expect(await db().sweep.findUniqueOrThrow({ where: { id: sweep.id } })).toMatchObject({
      status: "PENDING",
      failureReason: null,
    });
  });

  it.each([
    ["a confirmed sweep", "CONFIRMED", "own", 400, "sweep_not_failed"],
    ["a sweep in flight", "SUBMITTED", "own", 400, "sweep_not_failed"],
    ["another organization's sweep", "FAILED", "other", 404, "resource_missing"],
  ] as const)("refuses %s", async (_name, status, owner, httpStatus, code) => {
    const { organization } = await createTestOrganization();
    const other = await createTestOrganization();
    const sweep = await sweepIn(owner === "own" ? organization.id : other.organization.id, status);
    const error = await retrySweep(db(), organization.id, { sweepId: sweep.id }).catch((caught) => caught);
    expect(error).toBeInstanceOf(ServiceError);
    expect(error).toMatchObject({ status: httpStatus, code });
    expect((await db().sweep.findUniqueOrThrow({ where: { id: sweep.id } })).status).toBe(status);
  });
});

describe("getSettlementOverview", () => {
  it("says which networks have no settlement wallet and counts sweeps by status", async () => {
    const { organization } = await createTestOrganization();
    await db().settlementWallet.create({
      data: {
        id: newId("settlementWallet"),
        organizationId: organization.id,
        network: "base",
        address: "0x000000000000000000000000000000000000bEEF",
      },
    });
    await sweepIn(organization.id, "FAILED");
    await sweepIn(organization.id, "CONFIRMED");
    await sweepIn(organization.id, "CONFIRMED");
    const overview = await getSettlementOverview(db(), organization.id, ["base", "devnet"]);
    expect(overview.wallets).toEqual([
      { network: "base", address: "0x000000000000000000000000000000000000bEEF" },
      { network: "devnet", address: null },
    ]);
    expect(overview.sweepsByStatus).toEqual({ FAILED: 1, CONFIRMED: 2 });
  });
});
