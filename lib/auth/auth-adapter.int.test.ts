import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { db } from "@/lib/db/client";
import { newId } from "@/lib/ids";
import { createTestOrganization } from "@/scripts/test-support/fixtures";
import { createAuthAdapter } from "./auth-adapter";

const adapter = () => createAuthAdapter(db());
const unique = (name: string) => `${name}-${newId("user").slice(4, 12).toLowerCase()}@shop.example`;

describe("the next-auth adapter over our tables", () => {
  it("gives a first-time user an organization of their own, which they own", async () => {
    const email = unique("new");
    const user = await adapter().createUser?.({ email, emailVerified: new Date() });
    const memberships = await db().membership.findMany({
      where: { userId: user?.id },
      include: { organization: true },
    });
    expect(user?.id).toMatch(/^usr_/);
    expect(memberships).toHaveLength(1);
    expect(memberships[0]).toMatchObject({ role: "OWNER", organization: { name: "shop.example" } });
  });

  it("turns invitations into memberships instead of creating an organization", async () => {
    const { organization } = await createTestOrganization();
    const email = unique("invited");
    await db().invitation.create({
      data: { id: newId("invitation"), organizationId: organization.id, email, role: "MEMBER" },
    });
    const user = await adapter().createUser?.({ email: email.toUpperCase(), emailVerified: null });
    const memberships = await db().membership.findMany({ where: { userId: user?.id } });
    expect(memberships).toEqual([
      expect.objectContaining({ organizationId: organization.id, role: "MEMBER" }),
    ]);
    expect(await db().invitation.count({ where: { email } })).toBe(0);
  });

  it("keeps only a hash of the session token, and finds the session by the token", async () => {
    const user = await adapter().createUser?.({ email: unique("session"), emailVerified: null });
    const sessionToken = "a-session-token-of-the-cookie";
    const expires = new Date(Date.now() + 60_000);
    await adapter().createSession?.({ sessionToken, userId: user?.id as string, expires });
    const stored = await db().authSession.findMany({ where: { userId: user?.id } });
    expect(stored).toEqual([
      expect.objectContaining({ tokenHash: createHash("sha256").update(sessionToken).digest("hex") }),
    ]);
    expect(JSON.stringify(stored)).not.toContain(sessionToken);
    expect(await adapter().getSessionAndUser?.(sessionToken)).toMatchObject({
      session: { sessionToken, userId: user?.id },
      user: { id: user?.id },
    });
    await adapter().deleteSession?.(sessionToken);
    expect(await adapter().getSessionAndUser?.(sessionToken)).toBeNull();
  });

  it("lets a sign-in link be used once", async () => {
    const token = {
      identifier: unique("link"),
      token: newId("user"),
      expires: new Date(Date.now() + 60_000),
    };
    await adapter().createVerificationToken?.(token);
    expect(await adapter().useVerificationToken?.(token)).toMatchObject({ identifier: token.identifier });
    expect(await adapter().useVerificationToken?.(token)).toBeNull();
  });
});
