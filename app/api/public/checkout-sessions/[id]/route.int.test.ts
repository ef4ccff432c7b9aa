import { describe, expect, it } from "vitest";
import { POST as createSession } from "@/app/api/checkout-sessions/route";
import { db } from "@/lib/db/client";
import { callRoute } from "@/scripts/test-support/call-route";
import { createTestOrganization } from "@/scripts/test-support/fixtures";
import { GET } from "./route";

async function newSession(body: Record<string, unknown> = {}) {
  const { auth } = await createTestOrganization("Mug Shop");
  const response = await callRoute(createSession, "/api/checkout-sessions", {
    headers: { ...auth, "idempotency-key": `public-view-${Date.now()}-${Math.random()}` },
    body: {
      amount: "20",
      currency: "USD",
      description: "A mug",
      customerEmail: "secret-buyer@example.com",
      customerName: "Secret Buyer",
      clientReferenceId: "cus_secret",
      merchantOrderId: "internal-42",
      metadata: { internal: "do-not-leak" },
      successUrl: "https://shop.example/ok/{CHECKOUT_SESSION_ID}",
      cancelUrl: "https://shop.example/cart",
      ...body,
    },
  });
  return response.json;
}

describe("GET /api/public/checkout-sessions/{id}", () => {
  it("shows only what the hosted page needs", async () => {
    const session = await newSession();
    const response = await callRoute(GET, `/api/public/checkout-sessions/${session.id}`, {
      params: { id: session.id },
    });
    expect(response.status).toBe(200);
    expect(response.json).toEqual({
      id: session.id,
      object: "checkout_session",
      status: "OPEN",
      merchantName: "Mug Shop",
      brandColor: null,
      logoUrl: null,
      amount: "20.00",
      currency: "USD",
      // The buyer's receipt names the order: it is the merchant's reference for the buyer.
      merchantOrderId: "internal-42",
      description: "A mug",
      successUrl: `https://shop.example/ok/${session.id}`,
      cancelUrl: "https://shop.example/cart",
      recurring: null,
      expiresAt: session.expiresAt,
      x402Url: `http://localhost:3000/api/x402/checkout-sessions/${session.id}`,
    });
    for (const secret of ["secret-buyer", "Secret Buyer", "cus_secret", "do-not-leak", "org_"]) {
      expect(response.text).not.toContain(secret);
    }
  });

  it("reports an expired session as EXPIRED", async () => {
    const session = await newSession({ expiresInMinutes: 5 });
    await db().checkoutSession.update({
      where: { id: session.id },
      data: { expiresAt: new Date(Date.now() - 1) },
    });
    const response = await callRoute(GET, "/x", { params: { id: session.id } });
    expect(response.json.status).toBe("EXPIRED");
  });

  it.each(["ycs_000000000000000000000000", "nope", "6f1c1c8e-7d5a-4c63-9d53-2a3b9b1e0c11"])(
    "404s for %s",
    async (id) => {
      const response = await callRoute(GET, "/x", { params: { id } });
      expect(response.status).toBe(404);
      expect(response.json.error.code).toBe("resource_missing");
    },
  );
});
