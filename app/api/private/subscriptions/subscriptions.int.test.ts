import { describe, expect, it } from "vitest";
import { db } from "@/lib/db/client";
import { callRoute } from "@/scripts/test-support/call-route";
import { createTestOrganization } from "@/scripts/test-support/fixtures";
import { createTestSubscription } from "@/scripts/test-support/subscription-fixtures";
import { POST as cancel } from "./[id]/cancel/route";
import { GET as retrieve } from "./[id]/route";
import { GET as list } from "./route";

describe("subscriptions API", () => {
  it("lists newest first, filters by status and customer, and pages", async () => {
    const { auth, organization } = await createTestOrganization();
    const active = await createTestSubscription(organization.id, { customerEmail: "ada@example.com" });
    const pastDue = await createTestSubscription(organization.id, { status: "PAST_DUE" });
    const all = await callRoute(list, "/api/private/subscriptions", { headers: auth });
    expect(all.status).toBe(200);
    expect(all.json).toMatchObject({ success: true, data: { object: "list", total: 2, hasMore: false } });
    expect(all.json.data.data.map((row: { id: string }) => row.id)).toEqual([pastDue.id, active.id]);
    const byStatus = await callRoute(list, "/api/private/subscriptions?status=PAST_DUE", { headers: auth });
    expect(byStatus.json.data.data.map((row: { id: string }) => row.id)).toEqual([pastDue.id]);
    const byCustomer = await callRoute(list, "/api/private/subscriptions?customer=ADA@example.com", {
      headers: auth,
    });
    expect(byCustomer.json.data.data).toEqual([
      expect.objectContaining({
        id: active.id,
        object: "subscription",
        status: "ACTIVE",
        amount: "9.00",
        interval: "month",
        intervalCount: 1,
        customer: { email: "ada@example.com", name: null, clientReferenceId: null },
        cancelAtPeriodEnd: false,
        cancellationReason: null,
      }),
    ]);
    const page = await callRoute(list, "/api/private/subscriptions?rows=1&page=2", { headers: auth });
    expect(page.json.data).toMatchObject({ page: 2, rows: 1, total: 2, hasMore: false });
    expect(page.json.data.data.map((row: { id: string }) => row.id)).toEqual([active.id]);
  });

  it.each([
    ["status=OPEN", "status"],
    ["rows=0", "rows"],
    ["customer=", "customer"],
    ["colour=red", "colour"],
  ])("rejects the list query %s (400, param %s)", async (query, param) => {
    const { auth } = await createTestOrganization();
    const response = await callRoute(list, `/api/private/subscriptions?${query}`, { headers: auth });
    expect(response.status).toBe(400);
    expect(response.json.error.param).toBe(param);
  });

  it("retrieves one with its invoices and hosted payment links", async () => {
    const { auth, organization } = await createTestOrganization();
    const subscription = await createTestSubscription(organization.id);
    const response = await callRoute(retrieve, `/api/private/subscriptions/${subscription.id}`, {
      headers: auth,
      params: { id: subscription.id },
    });
    expect(response.status).toBe(200);
    expect(response.json.data).toMatchObject({
      id: subscription.id,
      status: "ACTIVE",
      currentPeriodStart: subscription.currentPeriodStart.toISOString(),
      currentPeriodEnd: subscription.currentPeriodEnd.toISOString(),
    });
    expect(response.json.data.invoices).toEqual([
      expect.objectContaining({
        object: "invoice",
        periodIndex: 0,
        status: "CONFIRMED",
        url: expect.stringMatching(/\/pay\/ycs_/),
      }),
    ]);
  });

  it("cancels now or at period end; a second cancel is 409", async () => {
    const { auth, organization } = await createTestOrganization();
    const later = await createTestSubscription(organization.id);
    const now = await createTestSubscription(organization.id);
    const atEnd = await callRoute(cancel, `/api/private/subscriptions/${later.id}/cancel`, {
      headers: auth,
      params: { id: later.id },
      body: { atPeriodEnd: true },
    });
    expect(atEnd.status).toBe(200);
    expect(atEnd.json.data).toMatchObject({ status: "ACTIVE", cancelAtPeriodEnd: true });
    const immediate = await callRoute(cancel, `/api/private/subscriptions/${now.id}/cancel`, {
      headers: auth,
      params: { id: now.id },
      body: {},
    });
    expect(immediate.json.data).toMatchObject({ status: "CANCELLED", cancellationReason: "requested" });
    expect(
      await db().event.count({ where: { organizationId: organization.id, type: "subscription.cancelled" } }),
    ).toBe(1);
    const again = await callRoute(cancel, `/api/private/subscriptions/${now.id}/cancel`, {
      headers: auth,
      params: { id: now.id },
      body: {},
    });
    expect(again.status).toBe(409);
    expect(again.json.error.code).toBe("subscription_cancelled");
  });

  it.each<[string, unknown, number, string]>([
    ["a string flag", { atPeriodEnd: "yes" }, 400, "parameter_invalid"],
    ["an unknown field", { now: true }, 400, "parameter_unknown"],
    ["not JSON", "atPeriodEnd", 400, "invalid_json"],
  ])("refuses a cancel with %s and changes nothing", async (_case, body, status, code) => {
    const { auth, organization } = await createTestOrganization();
    const subscription = await createTestSubscription(organization.id);
    const response = await callRoute(cancel, "/x", {
      headers: { ...auth, "content-type": "application/json" },
      params: { id: subscription.id },
      body,
    });
    expect(response.status).toBe(status);
    expect(response.json.error.code).toBe(code);
    expect(await db().subscription.findUniqueOrThrow({ where: { id: subscription.id } })).toMatchObject({
      status: "ACTIVE",
      cancelAtPeriodEnd: false,
    });
  });

  it("answers 404 for another organization's subscription on every endpoint", async () => {
    const owner = await createTestOrganization();
    const other = await createTestOrganization();
    const subscription = await createTestSubscription(owner.organization.id);
    const responses = await Promise.all([
      callRoute(retrieve, `/api/private/subscriptions/${subscription.id}`, {
        headers: other.auth,
        params: { id: subscription.id },
      }),
      callRoute(cancel, `/api/private/subscriptions/${subscription.id}/cancel`, {
        headers: other.auth,
        params: { id: subscription.id },
        body: {},
      }),
      callRoute(retrieve, `/api/private/subscriptions/${"sub_nope"}`, {
        headers: owner.auth,
        params: { id: "sub_nope" },
      }),
    ]);
    for (const response of responses) {
      expect(response.status).toBe(404);
      expect(response.json.error).toMatchObject({ type: "not_found_error", code: "resource_missing" });
    }
    const listed = await callRoute(list, "/api/private/subscriptions", { headers: other.auth });
    expect(listed.json.data.total).toBe(0);
    expect((await db().subscription.findUniqueOrThrow({ where: { id: subscription.id } })).status).toBe(
      "ACTIVE",
    );
  });
});
