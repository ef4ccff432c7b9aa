import { describe, expect, it } from "vitest";
import { db } from "@/lib/db/client";
import { createTestAgentCredential, createTestOrganization } from "@/scripts/test-support/fixtures";
import { listAgentCredentials } from "./list-agent-credentials";
import { revokeAgentCredential } from "./revoke-agent-credential";

describe("agent credentials of an organization", () => {
  it("lists its own agents without any secret, and revokes only its own", async () => {
    const mine = await createTestOrganization("Mine");
    const theirs = await createTestOrganization("Theirs");
    const reader = await createTestAgentCredential(mine.organization.id, "read");
    const other = await createTestAgentCredential(theirs.organization.id);

    const listed = await listAgentCredentials(db(), mine.organization.id);
    expect(listed).toEqual([
      {
        id: reader.credential.id,
        agentName: "Test agent",
        prefix: reader.credential.prefix,
        access: "read",
        status: "active",
        createdBy: expect.stringMatching(/@example\.com$/),
        createdAt: reader.credential.createdAt.toISOString(),
        lastUsedAt: null,
        revokedAt: null,
      },
    ]);
    expect(JSON.stringify(listed)).not.toContain(reader.secret);
    expect(JSON.stringify(listed)).not.toContain(mine.apiKey);

    await expect(
      revokeAgentCredential(db(), {
        organizationId: mine.organization.id,
        agentCredentialId: other.credential.id,
      }),
    ).rejects.toMatchObject({ status: 404 });
    expect(
      (await db().agentCredential.findUniqueOrThrow({ where: { id: other.credential.id } })).revokedAt,
    ).toBeNull();

    const revoked = await revokeAgentCredential(db(), {
      organizationId: mine.organization.id,
      agentCredentialId: reader.credential.id,
    });
    const again = await revokeAgentCredential(db(), {
      organizationId: mine.organization.id,
      agentCredentialId: reader.credential.id,
    });
    expect(again.revokedAt).toEqual(revoked.revokedAt);
    expect((await listAgentCredentials(db(), mine.organization.id))[0].status).toBe("revoked");
  });
});
