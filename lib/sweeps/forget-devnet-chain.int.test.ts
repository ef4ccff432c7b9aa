import { describe, expect, it } from "vitest";
import { db } from "@/lib/db/client";
import { newId } from "@/lib/ids";
import { createTestInvoice, createTestOrganization, createTestSweep } from "@/scripts/test-support/fixtures";
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

  it("fails devnet refunds submitted on the previous chain, with refund.failed, and leaves pending ones to go out", async () => {
    const { organization } = await createTestOrganization();
    const invoice = await createTestInvoice(organization.id, { amount: "10", status: "CONFIRMED" });
    const refund = (status: "PENDING" | "SUBMITTED") =>
      db().refund.create({
        data: {
          id: newId("refund"),
          organizationId: organization.id,
          invoiceId: invoice.id,
          checkoutSessionId: invoice.checkoutSessionId,
          network: "devnet",
          token: "USDC",
          amount: "1",
          amountUsd: "1",
          status,
          destination: "ADDRESS",
          toAddress: "0x00000000000000000000000000000000000000aa",
          requestedByKind: "api_key",
          requestedByName: "Test key",
        },
      });
    const submitted = await refund("SUBMITTED");
    const pending = await refund("PENDING");
    await forgetDevnetChain(db());
    const reread = async (id: string) => db().refund.findUniqueOrThrow({ where: { id } });
    expect(await reread(submitted.id)).toMatchObject({
      status: "FAILED",
      failureReason: expect.stringMatching(/restarted/),
    });
    expect((await reread(pending.id)).status).toBe("PENDING");
    expect(await db().event.count({ where: { type: "refund.failed", invoiceId: invoice.id } })).toBe(1);
  });
});
