import { describe, expect, it } from "vitest";
import { GET as getPublicSession } from "@/app/api/public/checkout-sessions/[id]/route";
import { GET as getLogo } from "@/app/api/public/logos/[id]/route";
import { db } from "@/lib/db/client";
import { newId } from "@/lib/ids";
import { callRoute } from "@/scripts/test-support/call-route";
import { createTestOrganization } from "@/scripts/test-support/fixtures";
import { GET, PUT } from "./route";

const path = "/api/private/organization/current";
// The smallest valid PNG (1×1, transparent) and a GIF header: real magic bytes, tiny files.
const png = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=",
  "base64",
);
const svg = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>');

async function fetchLogo(logoUrl: string) {
  const id = logoUrl.split("/").at(-1) as string;
  return callRoute(getLogo, `/api/public/logos/${id}`, { params: { id } });
}

describe("branding: PUT /api/private/organization/current", () => {
  it("stores a display name, a color and an uploaded logo, serves the logo from our origin and clears them with null", async () => {
    const { auth, organization } = await createTestOrganization();
    const response = await callRoute(PUT, path, {
      method: "PUT",
      headers: auth,
      body: {
        brandDisplayName: "  Sticker Shop ",
        brandColor: "#1D4ED8",
        logo: { dataBase64: png.toString("base64") },
      },
    });
    expect(response.status).toBe(200);
    const { branding } = response.json.data;
    expect(branding).toMatchObject({ displayName: "Sticker Shop", color: "#1d4ed8" });
    expect(branding.logoUrl).toMatch(/^http:\/\/localhost:\d+\/api\/public\/logos\/logo_[0-9A-Za-z]{24}$/);

    const logo = await fetchLogo(branding.logoUrl);
    expect(logo.status).toBe(200);
    expect(logo.headers.get("content-type")).toBe("image/png");
    expect(logo.headers.get("x-content-type-options")).toBe("nosniff");
    expect(logo.headers.get("content-security-policy")).toBe("default-src 'none'; sandbox");
    expect(Buffer.from(logo.text, "latin1").length).toBeGreaterThan(0);
    const stored = await db().organizationLogo.findUniqueOrThrow({
      where: { organizationId: organization.id },
    });
    expect(Buffer.from(stored.bytes).equals(png)).toBe(true);

    // The hosted page's view carries the brand, with the logo as a path on this origin.
    const session = await db().checkoutSession.create({
      data: {
        id: newId("checkoutSession"),
        organizationId: organization.id,
        amount: "10.00",
        currency: "USD",
        merchantOrderId: "order-42",
        expiresAt: new Date(Date.now() + 3_600_000),
      },
    });
    const view = await callRoute(getPublicSession, `/api/public/checkout-sessions/${session.id}`, {
      params: { id: session.id },
    });
    expect(view.json).toMatchObject({
      merchantName: "Sticker Shop",
      brandColor: "#1d4ed8",
      logoUrl: `/api/public/logos/${stored.id}`,
      merchantOrderId: "order-42",
    });

    const cleared = await callRoute(PUT, path, {
      method: "PUT",
      headers: auth,
      body: { brandDisplayName: null, brandColor: null, logo: null },
    });
    expect(cleared.json.data.branding).toEqual({ displayName: null, color: null, logoUrl: null });
    expect((await fetchLogo(branding.logoUrl)).status).toBe(404);
  });

  it.each<[string, unknown, string]>([
    ["a color white text cannot be read on", { brandColor: "#fde047" }, "brandColor"],
    ["a color name", { brandColor: "blue" }, "brandColor"],
    ["a short hex color", { brandColor: "#00f" }, "brandColor"],
    ["an SVG logo (it can carry script)", { logo: { dataBase64: svg.toString("base64") } }, "logo"],
    ["a logo that is not base64", { logo: { dataBase64: "not base64!" } }, "logo.dataBase64"],
    [
      "a logo over 32 KiB",
      { logo: { dataBase64: Buffer.concat([png, Buffer.alloc(33 * 1024)]).toString("base64") } },
      "logo.dataBase64",
    ],
    [
      "a logo given as a URL (only uploads are stored)",
      { logo: { url: "https://example.com/logo.png" } },
      "logo.dataBase64",
    ],
    ["an empty display name", { brandDisplayName: " " }, "brandDisplayName"],
  ])("rejects %s with a 400 naming the field, and changes nothing", async (_case, body, param) => {
    const { auth } = await createTestOrganization();
    const before = (await callRoute(GET, path, { headers: auth })).json.data;
    const response = await callRoute(PUT, path, { method: "PUT", headers: auth, body });
    expect(response.status).toBe(400);
    expect(response.json.error.param).toBe(param);
    expect((await callRoute(GET, path, { headers: auth })).json.data).toEqual(before);
  });

  it.each([
    ["an unknown id", "logo_000000000000000000000000"],
    ["a malformed id", "../etc/passwd"],
  ])("answers 404 for %s", async (_case, id) => {
    expect((await callRoute(getLogo, `/api/public/logos/${id}`, { params: { id } })).status).toBe(404);
  });
});
