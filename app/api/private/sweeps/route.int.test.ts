import { describe, expect, it } from "vitest";
import { callRoute } from "@/scripts/test-support/call-route";
import { createTestOrganization, createTestSweep } from "@/scripts/test-support/fixtures";
import { GET } from "./route";

const path = "/api/private/sweeps";

const sweepFor = (organizationId: string, status: "CONFIRMED" | "FAILED", network = "devnet") =>
  createTestSweep(organizationId, {
    status,
    network,
    transactions: [{ kind: "FUNDING", nonce: 4, blockNumber: 12n, gasUsed: "21000" }],
  });

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
