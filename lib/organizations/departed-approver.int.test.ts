// Invitations are emailed; the development mailbox takes them.
process.env.SERVICE_DEV_MAILBOX = "true";

import { setTimeout } from "node:timers/promises";
import { afterAll, beforeAll, describe, expect, inject, it, vi } from "vitest";
import { GET } from "@/app/api/private/organization/current/route";
import { POST as mcpPost } from "@/app/mcp/route";
import { config } from "@/lib/config";
import { announceCredentialChange } from "@/lib/credential-cache/announce-credential-change";
import { type CredentialCache, createCredentialCache } from "@/lib/credential-cache/credential-cache";
import { db } from "@/lib/db/client";
import { authenticateStoredCredential } from "@/lib/merchant-auth/authenticate-stored-credential";
import { createTestAgentCredential, createTestOrganization } from "@/scripts/test-support/fixtures";
import { oauthAccessToken } from "@/scripts/test-support/oauth";
import { serveRoute } from "@/scripts/test-support/serve-route";
import { createAgentCredential } from "../agent-access/create-agent-credential";
import { createApiKey } from "../api-keys/create-api-key";
import { newId, randomBase62 } from "../ids";
import { inviteMember } from "./invite-member";
import { listTeam } from "./list-team";
import { removeMember } from "./remove-member";

// The REST API and the MCP server over real HTTP, and a second instance's credential cache: a
// credential approved by an owner who is then removed is refused on its next request everywhere.
let rest: Awaited<ReturnType<typeof serveRoute>>;
let mcp: Awaited<ReturnType<typeof serveRoute>>;
let otherInstance: CredentialCache;
beforeAll(async () => {
  rest = await serveRoute({ GET }, config().baseUrl);
  mcp = await serveRoute({ POST: mcpPost }, config().baseUrl);
  otherInstance = createCredentialCache(process.env.DATABASE_URL);
  await otherInstance.read("warm-up", async () => null);
  for (let wait = 0; wait < 100 && !otherInstance.serving; wait++) await setTimeout(50);
});
afterAll(async () => {
  await rest?.close();
  await mcp?.close();
  await otherInstance?.stop();
});

const restStatus = async (authorization: string) =>
  (await fetch(`${rest.url}/api/private/organization/current`, { headers: { authorization } })).status;

const mcpStatus = async (authorization: string) =>
  (
    await fetch(`${mcp.url}/mcp`, {
      method: "POST",
      headers: {
        authorization,
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
      },
      body: JSON.stringify({
        jsonrpc: "2.0",
        id: 1,
        method: "initialize",
        params: {
          protocolVersion: "2025-06-18",
          capabilities: {},
          clientInfo: { name: "test", version: "1" },
        },
      }),
    })
  ).status;

/** An organization with a second owner (or member) who approved an agent and connected an app. */
async function organizationWithApprover(role: "OWNER" | "MEMBER") {
  const { organization } = await createTestOrganization();
  const user = await db().user.create({
    data: { id: newId("user"), email: `approver-${randomBase62(8).toLowerCase()}@example.com` },
  });
  const membership = await db().membership.create({
    data: { id: newId("membership"), organizationId: organization.id, userId: user.id, role },
  });
  const { secret } = await db().$transaction((tx) =>
    createAgentCredential(tx, {
      organizationId: organization.id,
      agentName: "Approved by the one who leaves",
      access: "write",
      createdByUserId: user.id,
    }),
  );
  const app = await oauthAccessToken(organization.id, user.id, role === "OWNER" ? "read write" : "read");
  // Approved by the owner who stays.
  const staying = await createTestAgentCredential(organization.id, "write");
  return { organization, membership, agent: `Bearer ${secret}`, secret, app, staying };
}

describe("credentials end with their approver's authority", () => {
  it("removing the owner who approved an agent credential and an app: both refused on the next request", async () => {
    const { organization, membership, agent, secret, app, staying } = await organizationWithApprover("OWNER");
    // In use, and remembered by the other instance (PGlite passes no notifications: there no
    // cache serves entries, and every read is fresh).
    expect(otherInstance.serving).toBe(inject("testDatabase").mode === "server");
    expect(await restStatus(agent)).toBe(200);
    expect(await mcpStatus(app)).toBe(200);
    expect(await authenticateStoredCredential(db(), "agent", secret, otherInstance)).not.toBeNull();
    const team = await listTeam(db(), organization.id);
    expect(team.members.find((member) => member.id === membership.id)?.approved).toEqual({
      agents: 1,
      apps: 1,
      invitations: 0,
    });

    await removeMember(db(), organization.id, membership.id);

    expect(await restStatus(agent)).toBe(401);
    expect(await mcpStatus(app)).toBe(401);
    expect(await authenticateStoredCredential(db(), "agent", secret, otherInstance)).toBeNull();
    // What the staying owner approved goes on.
    expect(await restStatus(staying.auth.authorization)).toBe(200);
    const revoked = await db().agentCredential.findMany({
      where: { organizationId: organization.id, revokedAt: { not: null } },
    });
    expect(revoked.map((credential) => credential.agentName)).toEqual(["Approved by the one who leaves"]);
    expect(await db().oAuthGrant.count({ where: { organizationId: organization.id, revokedAt: null } })).toBe(
      0,
    );
  });

  it("removing a member who connected an app (read): its grant is revoked, and stays so if they return", async () => {
    const { organization, membership, app } = await organizationWithApprover("MEMBER");
    expect(await mcpStatus(app)).toBe(200);
    await removeMember(db(), organization.id, membership.id);
    await db().membership.create({
      data: {
        id: newId("membership"),
        organizationId: organization.id,
        userId: membership.userId,
        role: "MEMBER",
      },
    });
    expect(await mcpStatus(app)).toBe(401);
  });

  it("a demoted approver's agent credential is refused too, once the caches hear of it", async () => {
    const { membership, agent, secret, staying } = await organizationWithApprover("OWNER");
    expect(await restStatus(agent)).toBe(200);
    await db().membership.update({ where: { id: membership.id }, data: { role: "MEMBER" } });
    await announceCredentialChange();
    expect(await restStatus(agent)).toBe(401);
    expect(await authenticateStoredCredential(db(), "agent", secret, otherInstance)).toBeNull();
    expect(await restStatus(staying.auth.authorization)).toBe(200);
  });

  it("an agent credential with no approver (its user deleted) is refused like an unknown one", async () => {
    const { organization, agent, secret, staying } = await organizationWithApprover("OWNER");
    expect(await restStatus(agent)).toBe(200);
    const credential = await db().agentCredential.findFirstOrThrow({
      where: { organizationId: organization.id, agentName: "Approved by the one who leaves" },
    });
    await db().agentCredential.update({ where: { id: credential.id }, data: { createdByUserId: null } });
    await announceCredentialChange();
    expect(await restStatus(agent)).toBe(401);
    expect(await restStatus(`Bearer sk_agent_${"x".repeat(40)}`)).toBe(401);
    expect(await authenticateStoredCredential(db(), "agent", secret, otherInstance)).toBeNull();
    expect(await restStatus(staying.auth.authorization)).toBe(200);
  });

  it("a removal that is refused (the last owner) revokes nothing", async () => {
    const { organization } = await createTestOrganization();
    const { auth } = await createTestAgentCredential(organization.id, "write");
    const owner = await db().membership.findFirstOrThrow({ where: { organizationId: organization.id } });
    await expect(removeMember(db(), organization.id, owner.id)).rejects.toMatchObject({ code: "last_owner" });
    expect(await restStatus(auth.authorization)).toBe(200);
    // Nor tells anyone of a removal that did not happen.
    expect(
      await db().outboundEmail.count({ where: { organizationId: organization.id, kind: "owner_notice" } }),
    ).toBe(0);
  });

  it("a returning member gets no revoked credential back", async () => {
    const { organization, membership, agent, app } = await organizationWithApprover("OWNER");
    await removeMember(db(), organization.id, membership.id);
    await db().membership.create({
      data: {
        id: newId("membership"),
        organizationId: organization.id,
        userId: membership.userId,
        role: "OWNER",
      },
    });
    expect(await restStatus(agent)).toBe(401);
    expect(await mcpStatus(app)).toBe(401);
  });

  it.each([
    ["by default", undefined, 401],
    ["unless the remover keeps them", true, 200],
  ])(
    "removing an owner withdraws the invitations they sent, tells the owners who stay, and revokes the API keys they made %s",
    async (_case, keepApiKeys, keyStatus) => {
      const { organization, membership } = await organizationWithApprover("OWNER");
      const stayingOwner = await db().membership.findFirstOrThrow({
        where: { organizationId: organization.id, role: "OWNER", id: { not: membership.id } },
      });
      const invite = async (invitedByUserId: string) => {
        const email = `invitee-${randomBase62(8).toLowerCase()}@example.com`;
        await inviteMember(db(), organization.id, {
          email,
          role: "OWNER",
          invitedBy: "an owner",
          invitedByUserId,
          clientAddress: "198.51.100.7",
        });
        return email;
      };
      await invite(membership.userId);
      const invitedByStaying = await invite(stayingOwner.userId);
      const { apiKey, secret } = await createApiKey(db(), {
        organizationId: organization.id,
        name: "Shop server",
        createdByUserId: membership.userId,
      });
      const leaving = (await listTeam(db(), organization.id)).members.find(
        (member) => member.id === membership.id,
      );
      expect(leaving?.approved.invitations).toBe(1);
      expect(leaving?.apiKeys).toEqual([{ name: "Shop server", prefix: apiKey.prefix }]);
      expect(await restStatus(`Bearer ${secret}`)).toBe(200);

      await removeMember(db(), organization.id, membership.id, { keepApiKeys });

      // Their invitation can no longer make anyone an owner; the staying owner's still stands.
      expect(
        (await db().invitation.findMany({ where: { organizationId: organization.id } })).map(
          (row) => row.email,
        ),
      ).toEqual([invitedByStaying]);
      // A departed owner keeps no key, unless the remover chose to keep it (a server may run on it).
      expect(await restStatus(`Bearer ${secret}`)).toBe(keyStatus);
      const { user: told } = await db().membership.findFirstOrThrow({
        where: { id: stayingOwner.id },
        include: { user: true },
      });
      // Recorded with the removal, sent by the outbox just after it (the removal does not wait).
      const notices = await vi.waitFor(
        async () => {
          const sent = await db().devEmail.findMany({
            where: { to: told.email, subject: { contains: "was removed from" } },
          });
          expect(sent).toHaveLength(1);
          return sent;
        },
        { timeout: 15_000, interval: 100 },
      );
      expect(
        await db().outboundEmail.findMany({
          where: { organizationId: organization.id, kind: "owner_notice" },
          select: { to: true, sentAt: true },
        }),
      ).toEqual([{ to: told.email, sentAt: expect.any(Date) }]);
      expect(notices[0].text).toContain(
        `Revoked: ${keyStatus === 401 ? 1 : 0} API key${keyStatus === 401 ? "" : "s"} they created${keepApiKeys ? " (the remover kept their keys working)" : ""}, 1 agent credential they approved, 1 connected app.`,
      );
      expect(notices[0].text).toContain("Withdrawn: 1 pending invitation they sent.");
      // The organization's first key (made by the staying owner) is never touched.
      const others = await db().apiKey.findMany({
        where: { organizationId: organization.id, id: { not: apiKey.id } },
      });
      expect(others.map((key) => key.revokedAt)).toEqual([null]);
    },
  );
});
