import { describe, expect, it } from "vitest";
import { db } from "@/lib/db/client";
import { createTestOrganization, createTestSweep } from "@/scripts/test-support/fixtures";
import { forgetDevnetChain } from "./forget-devnet-chain";

describe("forgetDevnetChain", () => {
  it("forgets devnet nonces and fails devnet sweeps in flight, leaving other networks alone", async () => {
    const { organization } = await createTestOrganization();
    const inFlight = await createTestSweep(organization.id, { status: "SUBMITTED" });
    const done = await createTestSweep(organization.id, { status: "CONFIRMED" });
    const elsewhere = await createTestSweep(organization.id, { status: "SUBMITTED", network: "base" });
    await db().signerNonce.createMany({
      data: [
        { network: "devnet", signer: "0xaa", nextNonce: 7 },
        { network: "base", signer: "0xaa", nextNonce: 3 },
      ],
    });
    await forgetDevnetChain(db());
    const status = async (id: string) => (await db().sweep.findUniqueOrThrow({ where: { id } })).status;
    expect(await status(inFlight.id)).toBe("FAILED");
    expect(await status(done.id)).toBe("CONFIRMED");
    expect(await status(elsewhere.id)).toBe("SUBMITTED");
    expect(await db().signerNonce.findMany({ select: { network: true } })).toEqual([{ network: "base" }]);
  });
});
