import { describe, expect, it } from "vitest";
import { db } from "@/lib/db/client";
import { newId } from "@/lib/ids";
import { callRoute } from "@/scripts/test-support/call-route";
import { createTestInvoice, createTestOrganization } from "@/scripts/test-support/fixtures";
import { GET } from "./route";

const path = "/api/private/sweeps";

async function sweepFor(organizationId: string, status: "CONFIRMED" | "FAILED", network = "devnet") {
  const invoice = await createTestInvoice(organizationId, { amount: "10", status: "CONFIRMED" });
  return db().sweep.create({
    data: {
      id: newId("sweep"),
      organizationId,
      invoiceId: invoice.id,
      network,
      token: "USDC",
      strategy: "GAS_TOP_UP",
      status,
      fromAddress: invoice.depositAddress,
      toAddress: "0x000000000000000000000000000000000000dEaD",
      amount: "10",
      failureReason: status === "FAILED" ? "the transfer reverted" : null,
      transactions: {
        create: [
          {
            id: newId("sweepTransaction"),
            kind: "FUNDING",
            signer: "0x0000000000000000000000000000000000000001",
            nonce: 4,
            hash: `0x${newId("sweep").slice(4).padEnd(64, "0")}`,
            raw: "0x02",
            maxFeePerGas: "1000000000",
            blockNumber: 12n,
            gasUsed: "21000",
          },
        ],
      },
    },
  });
}

describe("GET /api/private/sweeps", () => {
  it("lists the organization's sweeps with their transactions, filtered by status and network", async () => {
    const { auth, organization } = await createTestOrganization();
    const other = await createTestOrganization();
    const confirmed = await sweepFor(organization.id, "CONFIRMED");
    const failed = await sweepFor(organization.id, "FAILED", "base");
    await sweepFor(other.organization.id, "CONFIRMED");

    const all = await callRoute(GET, path, { headers: auth });
    expect(all.status).toBe(200);
    expect(all.json.data).toMatchObject({ total: 2, hasMore: false });
    expect(all.json.data.data.map((sweep: { id: string }) => sweep.id).sort()).toEqual(
      [confirmed.id, failed.id].sort(),
    );

    const byStatus = await callRoute(GET, `${path}?status=FAILED`, { headers: auth });
    expect(byStatus.json.data.data).toEqual([
      expect.objectContaining({
        id: failed.id,
        object: "sweep",
        status: "FAILED",
        network: "base",
        amount: "10",
        failureReason: "the transfer reverted",
        transactions: [
          expect.objectContaining({
            kind: "FUNDING",
            nonce: 4,
            replaced: false,
            blockNumber: "12",
            gasUsed: "21000",
          }),
        ],
      }),
    ]);
    const byNetwork = await callRoute(GET, `${path}?network=devnet`, { headers: auth });
    expect(byNetwork.json.data.data.map((sweep: { id: string }) => sweep.id)).toEqual([confirmed.id]);
  });

  it.each([
    ["status=LOST", "status"],
    ["rows=500", "rows"],
    ["page=0", "page"],
  ])("answers 400 for %s", async (query, param) => {
    const { auth } = await createTestOrganization();
    const response = await callRoute(GET, `${path}?${query}`, { headers: auth });
    expect(response.status).toBe(400);
    expect(response.json.error.param).toBe(param);
  });

  it("answers 401 without an API key", async () => {
    const response = await callRoute(GET, path);
    expect(response.status).toBe(401);
  });
});
