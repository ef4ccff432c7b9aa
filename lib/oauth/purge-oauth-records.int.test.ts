import { describe, expect, it } from "vitest";
import { authorizedCode, exchangeCode, refresh, registerTestClient } from "@/scripts/test-support/oauth";
import { hashSecret } from "../crypto/tokens";
import { db } from "../db/client";
import { purgeOAuthRecords } from "./purge-oauth-records";

const day = 24 * 60 * 60 * 1000;

describe("purgeOAuthRecords", () => {
  it("forgets expired tokens, stale codes, old revocations, unused clients and sealed retry answers, and keeps what still works", async () => {
    const now = new Date();
    const live = await authorizedCode();
    const issued = (await exchangeCode(live)).json;
    const rotated = (await refresh(live.clientId, issued.refresh_token)).json;
    const neverRedeemed = await authorizedCode();
    const revoked = await authorizedCode();
    await exchangeCode(revoked);
    const unused = await registerTestClient();

    await db().oAuthGrant.update({
      where: {
        codeHash: (
          await db().oAuthGrant.findFirstOrThrow({ where: { organizationId: neverRedeemed.organization.id } })
        ).codeHash,
      },
      data: { codeExpiresAt: new Date(now.getTime() - 2 * day) },
    });
    await db().oAuthGrant.updateMany({
      where: { organizationId: revoked.organization.id },
      data: { revokedAt: new Date(now.getTime() - 31 * day) },
    });
    await db().oAuthClient.update({
      where: { id: unused.client_id },
      data: { createdAt: new Date(now.getTime() - 91 * day) },
    });
    // The first access token has expired long ago; the rotation happened a minute ago.
    const liveGrant = await db().oAuthGrant.findFirstOrThrow({
      where: { organizationId: live.organization.id },
    });
    await db().oAuthToken.update({
      where: { hash: hashSecret(issued.access_token) },
      data: { expiresAt: new Date(now.getTime() - 2 * day) },
    });
    await db().oAuthToken.updateMany({
      where: { grantId: liveGrant.id, rotatedAt: { not: null } },
      data: { rotatedAt: new Date(now.getTime() - 60_000) },
    });

    expect(await purgeOAuthRecords(db(), new Date(now.getTime() + 1000))).toBe(5);

    const grants = await db().oAuthGrant.findMany({ select: { organizationId: true } });
    expect(grants.map((grant) => grant.organizationId)).toContain(live.organization.id);
    expect(grants.map((grant) => grant.organizationId)).not.toContain(neverRedeemed.organization.id);
    expect(grants.map((grant) => grant.organizationId)).not.toContain(revoked.organization.id);
    expect(await db().oAuthClient.findUnique({ where: { id: unused.client_id } })).toBeNull();
    expect(await db().oAuthClient.findUnique({ where: { id: live.clientId } })).not.toBeNull();
    expect(await db().oAuthToken.count({ where: { replaySealed: { not: null } } })).toBe(0);
    expect(await db().oAuthToken.findUnique({ where: { hash: hashSecret(issued.access_token) } })).toBeNull();
    // The current tokens still work.
    expect((await refresh(live.clientId, rotated.refresh_token)).status).toBe(200);
  });
});
