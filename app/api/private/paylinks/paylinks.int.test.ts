import { describe, expect, it } from "vitest";
import { GET as getPublicPaylink } from "@/app/api/public/paylinks/[id]/route";
import { db } from "@/lib/db/client";
import { callRoute } from "@/scripts/test-support/call-route";
import { createTestOrganization } from "@/scripts/test-support/fixtures";
import { GET as getPaylink } from "./[id]/route";
import { POST as create } from "./create/route";
import { POST as disable } from "./disable/route";
import { POST as edit } from "./edit/route";
import { GET as list } from "./route";

const unknownId = "6f1c1c8e-7d5a-4c63-9d53-2a3b9b1e0c11";

async function createPaylink(auth: Record<string, string>, body: Record<string, unknown> = {}) {
  const response = await callRoute(create, "/api/private/paylinks/create", {
    headers: auth,
    body: { name: "Sticker pack", amount: "4.5", currency: "USD", ...body },
  });
  expect(response.status).toBe(201);
  return response.json.data;
}

describe("paylinks", () => {
  it("creates a paylink and reads it back", async () => {
    const { auth } = await createTestOrganization();
    const paylink = await createPaylink(auth, { description: "Ten stickers" });
    expect(paylink).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      object: "paylink",
      name: "Sticker pack",
      description: "Ten stickers",
      amount: "4.50",
      currency: "USD",
      enabled: true,
      recurring: null,
      url: `http://localhost:3000/pay/${paylink.id}`,
      x402Url: `http://localhost:3000/api/x402/paylinks/${paylink.id}`,
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
    });
    const read = await callRoute(getPaylink, `/api/private/paylinks/${paylink.id}`, {
      headers: auth,
      params: { id: paylink.id },
    });
    expect(read.json).toEqual({ success: true, data: paylink });
  });

  it.each<[string, Record<string, unknown>, string, string]>([
    ["no name", { name: undefined }, "parameter_missing", "name"],
    ["an empty name", { name: "  " }, "parameter_invalid", "name"],
    ["a numeric amount", { amount: 4.5 }, "parameter_invalid", "amount"],
    ["too many decimals", { amount: "4.555" }, "parameter_invalid", "amount"],
    ["a zero amount", { amount: "0" }, "parameter_invalid", "amount"],
    ["an unknown currency", { currency: "DOGE" }, "parameter_invalid", "currency"],
    ["enabled as a string", { enabled: "yes" }, "parameter_invalid", "enabled"],
    ["an unknown field", { price: "1" }, "parameter_unknown", "price"],
  ])("rejects a create with %s", async (_case, change, code, param) => {
    const { auth, organization } = await createTestOrganization();
    const response = await callRoute(create, "/api/private/paylinks/create", {
      headers: auth,
      body: { name: "P", amount: "1", currency: "USD", ...change },
    });
    expect(response.status).toBe(400);
    expect(response.json).toMatchObject({ success: false, error: { code, param } });
    expect(await db().paylink.count({ where: { organizationId: organization.id } })).toBe(0);
  });

  it("pages through the list newest first with a total", async () => {
    const { auth } = await createTestOrganization();
    const created = [];
    for (let i = 0; i < 5; i++) created.push(await createPaylink(auth, { name: `P${i}` }));
    const page = (query: string) => callRoute(list, `/api/private/paylinks${query}`, { headers: auth });
    const first = await page("?page=1&rows=2");
    expect(first.json.data).toMatchObject({ object: "list", page: 1, rows: 2, total: 5, hasMore: true });
    expect(first.json.data.data.map((p: { name: string }) => p.name)).toEqual(["P4", "P3"]);
    const last = await page("?page=3&rows=2");
    expect(last.json.data.data.map((p: { name: string }) => p.name)).toEqual(["P0"]);
    expect(last.json.data.hasMore).toBe(false);
    const defaults = await page("");
    expect(defaults.json.data).toMatchObject({ page: 1, rows: 20, total: 5 });
    for (const [query, param] of [
      ["?rows=0", "rows"],
      ["?rows=101", "rows"],
      ["?page=0", "page"],
      ["?page=abc", "page"],
      ["?sort=name", "sort"],
    ]) {
      const bad = await page(query);
      expect(bad.status).toBe(400);
      expect(bad.json.error.param).toBe(param);
    }
  });

  it("edits only what is sent, and amount and currency together", async () => {
    const { auth } = await createTestOrganization();
    const paylink = await createPaylink(auth, { description: "old" });
    const renamed = await callRoute(edit, "/api/private/paylinks/edit", {
      headers: auth,
      body: { id: paylink.id, name: "Renamed", description: null },
    });
    expect(renamed.json.data).toMatchObject({
      name: "Renamed",
      description: null,
      amount: "4.50",
      currency: "USD",
    });
    const repriced = await callRoute(edit, "/api/private/paylinks/edit", {
      headers: auth,
      body: { id: paylink.id, amount: "9", currency: "EUR" },
    });
    expect(repriced.json.data).toMatchObject({ amount: "9.00", currency: "EUR" });
    const half = await callRoute(edit, "/api/private/paylinks/edit", {
      headers: auth,
      body: { id: paylink.id, amount: "10" },
    });
    expect(half.status).toBe(400);
    expect(half.json.error).toMatchObject({ code: "parameter_invalid", param: "currency" });
  });

  it("disables only with confirm: true, and a disabled paylink is gone for buyers", async () => {
    const { auth } = await createTestOrganization();
    const paylink = await createPaylink(auth);
    const publicView = () =>
      callRoute(getPublicPaylink, `/api/public/paylinks/${paylink.id}`, { params: { id: paylink.id } });
    expect((await publicView()).json).toEqual({
      id: paylink.id,
      object: "paylink",
      merchantName: "Test Store",
      name: "Sticker pack",
      description: null,
      amount: "4.50",
      currency: "USD",
      recurring: null,
      x402Url: `http://localhost:3000/api/x402/paylinks/${paylink.id}`,
    });

    for (const body of [{ id: paylink.id }, { id: paylink.id, confirm: false }]) {
      const refused = await callRoute(disable, "/api/private/paylinks/disable", { headers: auth, body });
      expect(refused.status).toBe(400);
      expect(refused.json.error).toMatchObject({ code: "confirmation_required", param: "confirm" });
      expect(refused.json.error.message).toContain('"confirm": true');
    }
    expect((await db().paylink.findUniqueOrThrow({ where: { id: paylink.id } })).enabled).toBe(true);

    const disabled = await callRoute(disable, "/api/private/paylinks/disable", {
      headers: auth,
      body: { id: paylink.id, confirm: true },
    });
    expect(disabled.json.data.enabled).toBe(false);
    expect((await publicView()).status).toBe(404);
  });

  it("carries a recurring price through create, edit and the buyer's view, and clears it with null", async () => {
    const { auth } = await createTestOrganization();
    const paylink = await createPaylink(auth, { recurring: { interval: "month" } });
    expect(paylink.recurring).toEqual({ interval: "month", intervalCount: 1 });
    const edited = await callRoute(edit, "/api/private/paylinks/edit", {
      headers: auth,
      body: { id: paylink.id, recurring: { interval: "week", intervalCount: 2 } },
    });
    expect(edited.json.data.recurring).toEqual({ interval: "week", intervalCount: 2 });
    const publicView = await callRoute(getPublicPaylink, "/x", { params: { id: paylink.id } });
    expect(publicView.json.recurring).toEqual({ interval: "week", intervalCount: 2 });
    const cleared = await callRoute(edit, "/api/private/paylinks/edit", {
      headers: auth,
      body: { id: paylink.id, recurring: null },
    });
    expect(cleared.json.data.recurring).toBeNull();
  });

  it.each<[string, unknown, string]>([
    ["an unknown interval", { interval: "fortnight" }, "recurring.interval"],
    ["a count of 0", { interval: "day", intervalCount: 0 }, "recurring.intervalCount"],
    ["a count of 13", { interval: "day", intervalCount: 13 }, "recurring.intervalCount"],
    ["a fractional count", { interval: "day", intervalCount: 1.5 }, "recurring.intervalCount"],
    ["an unknown field", { interval: "day", trialDays: 3 }, "recurring.trialDays"],
  ])("rejects a recurring price with %s", async (_case, recurring, param) => {
    const { auth, organization } = await createTestOrganization();
    const response = await callRoute(create, "/api/private/paylinks/create", {
      headers: auth,
      body: { name: "P", amount: "1", currency: "USD", recurring },
    });
    expect(response.status).toBe(400);
    expect(response.json.error.param).toBe(param);
    expect(await db().paylink.count({ where: { organizationId: organization.id } })).toBe(0);
  });

  it("answers 404 for another organization's paylink on every id-bearing endpoint", async () => {
    const owner = await createTestOrganization();
    const other = await createTestOrganization();
    const paylink = await createPaylink(owner.auth);
    const attempts = [
      callRoute(getPaylink, "/x", { headers: other.auth, params: { id: paylink.id } }),
      callRoute(edit, "/api/private/paylinks/edit", {
        headers: other.auth,
        body: { id: paylink.id, name: "Mine" },
      }),
      callRoute(disable, "/api/private/paylinks/disable", {
        headers: other.auth,
        body: { id: paylink.id, confirm: true },
      }),
      callRoute(getPaylink, "/x", { headers: owner.auth, params: { id: unknownId } }),
      callRoute(getPaylink, "/x", { headers: owner.auth, params: { id: "not-a-uuid" } }),
      callRoute(getPublicPaylink, "/x", { params: { id: unknownId } }),
    ];
    for (const response of await Promise.all(attempts)) {
      expect(response.status).toBe(404);
      expect(response.json.error).toMatchObject({ type: "not_found_error", code: "resource_missing" });
    }
    expect((await db().paylink.findUniqueOrThrow({ where: { id: paylink.id } })).name).toBe("Sticker pack");
  });
});
