import { describe, expect, it } from "vitest";
import { POST as authorize } from "@/app/api/private/agent/setup/authorize/route";
import { POST as lookup } from "@/app/api/private/agent/setup/lookup/route";
import {
  GET as organizationCurrent,
  PUT as updateOrganization,
} from "@/app/api/private/organization/current/route";
import { startAuthSession } from "@/lib/auth/session-cookie";
import { config } from "@/lib/config";
import { db } from "@/lib/db/client";
import { newId } from "@/lib/ids";
import { clientAddressHeader } from "@/lib/net/client-address";
import { callRoute } from "@/scripts/test-support/call-route";
import { createTestOrganization } from "@/scripts/test-support/fixtures";
import { POST as checkin } from "./checkin/route";
import { POST as start } from "./start/route";
import { GET as status } from "./status/route";

process.env.SERVICE_RATE_LIMIT_AGENT_SETUPS_PER_HOUR = "50";
// Emails go to the development mailbox (a table), where the tests read them.
process.env.SERVICE_DEV_MAILBOX = "true";

let clients = 0;
const client = () => ({ [clientAddressHeader]: `192.0.2.${++clients}` });

async function startSetup(body: unknown = { agentName: "Claude Code", access: "write" }) {
  return callRoute(start, "/api/agent/setup/start", { headers: client(), body });
}

const bearer = (token: string) => ({ ...client(), authorization: `Bearer ${token}` });
const checkIn = (token: string) =>
  callRoute(checkin, "/api/agent/setup/checkin", { method: "POST", headers: bearer(token) });
const getStatus = (token: string) => callRoute(status, "/api/agent/setup/status", { headers: bearer(token) });

/** The owner of a fresh organization, signed in: the cookie and Origin a dashboard page sends. */
async function signedInOwner(name = "Agent Store") {
  const { organization } = await createTestOrganization(name);
  const owner = await db().membership.findFirstOrThrow({ where: { organizationId: organization.id } });
  const cookie = await startAuthSession(db(), owner.userId);
  return {
    organization,
    userId: owner.userId,
    headers: { cookie: `${cookie.name}=${cookie.value}`, origin: new URL(config().baseUrl).origin },
  };
}

const lookUp = (headers: Record<string, string>, userCode: string) =>
  callRoute(lookup, "/api/private/agent/setup/lookup", { headers, body: { userCode } });

/** The emails the dev mailbox holds for one address. */
const mailTo = (to: string) => db().devEmail.findMany({ where: { to }, orderBy: { createdAt: "asc" } });

const decide = (
  headers: Record<string, string>,
  body: { userCode: string; organizationId: string; decision: "approve" | "deny" },
) => callRoute(authorize, "/api/private/agent/setup/authorize", { headers, body });

describe("agent browser setup: start → approve → check in", () => {
  it("hands the approved credential out once, for the approving owner's organization", async () => {
    const started = await startSetup();
    expect(started.status).toBe(201);
    const setup = started.json;
    expect(setup).toEqual({
      object: "agent_setup",
      status: "pending",
      agentName: "Claude Code",
      access: "write",
      userCode: expect.stringMatching(/^[BCDFGHJKLMNPQRSTVWXZ]{4}-[BCDFGHJKLMNPQRSTVWXZ]{4}$/),
      // The fixed page where the owner types the code: no link carries it (RFC 8628 section 5.4).
      loginUrl: `${config().baseUrl}/agent/setup`,
      setupToken: expect.stringMatching(/^cc_ast_[0-9A-Za-z]{40}$/),
      checkinToken: expect.stringMatching(/^cc_act_[0-9A-Za-z]{40}$/),
      expiresAt: expect.any(String),
      pollIntervalSeconds: 2,
    });
    const lifetime = Date.parse(setup.expiresAt) - Date.now();
    expect(lifetime).toBeGreaterThan(9 * 60_000);
    expect(lifetime).toBeLessThanOrEqual(10 * 60_000);

    // Nothing secret is stored as given.
    const row = await db().agentSetup.findFirstOrThrow({ where: { agentName: "Claude Code" } });
    const stored = JSON.stringify(row);
    for (const secret of [setup.setupToken, setup.checkinToken, setup.userCode])
      expect(stored).not.toContain(secret);
    expect(row.clientAddress).toMatch(/^192\.0\.2\.\d+$/);

    expect((await getStatus(setup.setupToken)).json).toEqual({
      object: "agent_setup",
      status: "pending",
      agentName: "Claude Code",
      expiresAt: setup.expiresAt,
    });
    const early = await checkIn(setup.checkinToken);
    expect(early.status).toBe(202);
    expect(early.json).toEqual({ object: "agent_setup", status: "pending", pollIntervalSeconds: 2 });

    const owner = await signedInOwner();
    // The owner typed the code: the page shows who asks, from where, since when, for what.
    const looked = await lookUp(owner.headers, setup.userCode.toLowerCase());
    expect(looked.status).toBe(200);
    expect(looked.json.data).toEqual({
      object: "agent_setup",
      status: "pending",
      agentName: "Claude Code",
      access: "write",
      clientAddress: row.clientAddress,
      startedAt: row.createdAt.toISOString(),
      expiresAt: setup.expiresAt,
    });
    const approved = await decide(owner.headers, {
      userCode: setup.userCode.toLowerCase().replace("-", ""),
      organizationId: owner.organization.id,
      decision: "approve",
    });
    expect(approved.status).toBe(200);
    expect(approved.json).toEqual({ success: true, data: { status: "approved" } });
    expect((await getStatus(setup.setupToken)).json.status).toBe("approved");

    const collected = await checkIn(setup.checkinToken);
    expect(collected.status).toBe(200);
    expect(collected.headers.get("cache-control")).toBe("no-store");
    expect(collected.json).toEqual({
      object: "agent_credential",
      status: "approved",
      credential: expect.stringMatching(/^sk_agent_[0-9A-Za-z]{40}$/),
      credentialId: expect.stringMatching(/^agc_/),
      agentName: "Claude Code",
      access: "write",
      organization: { id: owner.organization.id, name: "Agent Store" },
    });
    const credential = await db().agentCredential.findUniqueOrThrow({
      where: { id: collected.json.credentialId },
    });
    expect(credential).toMatchObject({
      organizationId: owner.organization.id,
      createdByUserId: owner.userId,
    });

    const current = await callRoute(organizationCurrent, "/api/private/organization/current", {
      headers: { authorization: `Bearer ${collected.json.credential}` },
    });
    expect(current.json.data.id).toBe(owner.organization.id);

    const again = await checkIn(setup.checkinToken);
    expect(again.status).toBe(410);
    expect(again.json.error).toMatchObject({ type: "invalid_request_error", code: "checkin_token_used" });
    expect((await getStatus(setup.setupToken)).json.status).toBe("approved");
    expect(await db().agentCredential.count({ where: { organizationId: owner.organization.id } })).toBe(1);
  });

  it("issues a read-only credential for a read-only request, which cannot write", async () => {
    const setup = (await startSetup({ agentName: "Reader", access: "read" })).json;
    const owner = await signedInOwner("Before");
    await decide(owner.headers, {
      userCode: setup.userCode,
      organizationId: owner.organization.id,
      decision: "approve",
    });
    const collected = (await checkIn(setup.checkinToken)).json;
    expect(collected.access).toBe("read");
    const write = await callRoute(updateOrganization, "/api/private/organization/current", {
      method: "PUT",
      headers: { authorization: `Bearer ${collected.credential}` },
      body: { name: "After" },
    });
    expect(write.status).toBe(403);
    expect(write.json.error.code).toBe("insufficient_access");
    expect((await db().organization.findUniqueOrThrow({ where: { id: owner.organization.id } })).name).toBe(
      "Before",
    );
  });

  it("gives two concurrent check-ins exactly one credential", async () => {
    const setup = (await startSetup()).json;
    const owner = await signedInOwner();
    await decide(owner.headers, {
      userCode: setup.userCode,
      organizationId: owner.organization.id,
      decision: "approve",
    });
    const results = await Promise.all(Array.from({ length: 4 }, () => checkIn(setup.checkinToken)));
    const statuses = results.map((result) => result.status).sort();
    expect(statuses).toEqual([200, 410, 410, 410]);
    expect(results.filter((result) => result.status === 410).map((result) => result.json.error.code)).toEqual(
      ["checkin_token_used", "checkin_token_used", "checkin_token_used"],
    );
    expect(await db().agentCredential.count({ where: { organizationId: owner.organization.id } })).toBe(1);
  });

  it("tells the agent when the owner denied it, and never issues a credential", async () => {
    const setup = (await startSetup()).json;
    const owner = await signedInOwner();
    const denied = await decide(owner.headers, {
      userCode: setup.userCode,
      organizationId: owner.organization.id,
      decision: "deny",
    });
    expect(denied.json).toEqual({ success: true, data: { status: "denied" } });
    expect((await getStatus(setup.setupToken)).json.status).toBe("denied");
    const refused = await checkIn(setup.checkinToken);
    expect(refused.status).toBe(403);
    expect(refused.json.error).toMatchObject({ type: "permission_error", code: "setup_denied" });
    const late = await decide(owner.headers, {
      userCode: setup.userCode,
      organizationId: owner.organization.id,
      decision: "approve",
    });
    expect(late.status).toBe(409);
    expect(late.json.error.code).toBe("setup_already_decided");
    expect(await db().agentCredential.count({ where: { organizationId: owner.organization.id } })).toBe(0);
  });

  it.each(["removed", "demoted"] as const)(
    "never hands out a setup approved by an owner who was %s before the check-in",
    async (change) => {
      const setup = (await startSetup()).json;
      const owner = await signedInOwner();
      const approved = await decide(owner.headers, {
        userCode: setup.userCode,
        organizationId: owner.organization.id,
        decision: "approve",
      });
      expect(approved.json).toEqual({ success: true, data: { status: "approved" } });
      const where = { organizationId: owner.organization.id, userId: owner.userId };
      if (change === "removed") await db().membership.deleteMany({ where });
      else await db().membership.updateMany({ where, data: { role: "MEMBER" } });
      const refused = await checkIn(setup.checkinToken);
      expect(refused.status).toBe(403);
      expect(refused.json.error).toMatchObject({ type: "permission_error", code: "approver_removed" });
      expect(await db().agentCredential.count({ where: { organizationId: owner.organization.id } })).toBe(0);
    },
  );

  it("expires a setup after 10 minutes, approved or not", async () => {
    const owner = await signedInOwner();
    const pending = (await startSetup()).json;
    const approved = (await startSetup()).json;
    await decide(owner.headers, {
      userCode: approved.userCode,
      organizationId: owner.organization.id,
      decision: "approve",
    });
    await db().agentSetup.updateMany({ data: { expiresAt: new Date(Date.now() - 1000) } });

    for (const setup of [pending, approved]) {
      expect((await getStatus(setup.setupToken)).json.status).toBe("expired");
      const late = await checkIn(setup.checkinToken);
      expect(late.status).toBe(410);
      expect(late.json.error.code).toBe("setup_expired");
    }
    const tooLate = await decide(owner.headers, {
      userCode: pending.userCode,
      organizationId: owner.organization.id,
      decision: "approve",
    });
    expect(tooLate.status).toBe(410);
    expect(tooLate.json.error.code).toBe("setup_expired");
    expect(await db().agentCredential.count({ where: { organizationId: owner.organization.id } })).toBe(0);
  });

  it.each<[string, Record<string, string>]>([
    ["no Authorization header", {}],
    ["an unknown token", { authorization: `Bearer cc_act_${"A".repeat(40)}` }],
    ["a setup token in place of the check-in token", { authorization: `Bearer cc_ast_${"A".repeat(40)}` }],
    ["a token of the wrong shape", { authorization: "Bearer cc_act_short" }],
  ])("refuses a check-in with %s (401)", async (_case, headers) => {
    const response = await callRoute(checkin, "/api/agent/setup/checkin", {
      method: "POST",
      headers: { ...client(), ...headers },
    });
    expect(response.status).toBe(401);
    expect(response.json.error).toMatchObject({
      type: "authentication_error",
      code: "invalid_checkin_token",
    });
  });

  it.each<[string, Record<string, string>]>([
    ["no Authorization header", {}],
    ["an unknown token", { authorization: `Bearer cc_ast_${"B".repeat(40)}` }],
  ])("refuses a status request with %s (401)", async (_case, headers) => {
    const response = await callRoute(status, "/api/agent/setup/status", {
      headers: { ...client(), ...headers },
    });
    expect(response.status).toBe(401);
    expect(response.json.error.code).toBe("invalid_setup_token");
  });

  it.each<[string, unknown, string]>([
    ["no agent name", { access: "write" }, "agentName"],
    ["an empty agent name", { agentName: "  " }, "agentName"],
    ["a 65-character agent name", { agentName: "x".repeat(65) }, "agentName"],
    ["an unknown access", { agentName: "A", access: "admin" }, "access"],
    ["an unknown field", { agentName: "A", organizationId: "org_x" }, "organizationId"],
  ])("refuses a start with %s (400) and stores nothing", async (_case, body, param) => {
    const before = await db().agentSetup.count();
    const response = await startSetup(body);
    expect(response.status).toBe(400);
    expect(response.json.error).toMatchObject({ type: "invalid_request_error", param });
    expect(await db().agentSetup.count()).toBe(before);
  });

  it("defaults to read access", async () => {
    const started = await startSetup({ agentName: "Default" });
    expect(started.json.access).toBe("read");
    expect((await db().agentSetup.findFirstOrThrow({ where: { agentName: "Default" } })).access).toBe("READ");
  });

  it("emails every owner of the organization when the credential is issued, with a revoke link", async () => {
    const owner = await signedInOwner("Noticed Store");
    const secondOwner = await db().user.create({ data: { id: newId("user"), email: "second@example.com" } });
    const plainMember = await db().user.create({ data: { id: newId("user"), email: "member@example.com" } });
    for (const [userId, role] of [
      [secondOwner.id, "OWNER"],
      [plainMember.id, "MEMBER"],
    ] as const) {
      await db().membership.create({
        data: { id: newId("membership"), organizationId: owner.organization.id, userId, role },
      });
    }
    const ownerEmail = (await db().user.findUniqueOrThrow({ where: { id: owner.userId } })).email;
    const setup = (await startSetup({ agentName: "Watched agent", access: "write" })).json;
    const { clientAddress } = await db().agentSetup.findFirstOrThrow({
      where: { agentName: "Watched agent" },
    });
    await decide(owner.headers, {
      userCode: setup.userCode,
      organizationId: owner.organization.id,
      decision: "approve",
    });
    expect(await mailTo(ownerEmail)).toEqual([]);
    expect((await checkIn(setup.checkinToken)).status).toBe(200);

    for (const to of [ownerEmail, "second@example.com"]) {
      const [mail, ...more] = await mailTo(to);
      expect(more).toEqual([]);
      expect(mail.subject).toBe("An agent was connected to Noticed Store");
      expect(mail.text).toContain('"Watched agent"');
      expect(mail.text).toContain("Access: read and write");
      expect(mail.text).toContain(`Requested from: ${clientAddress}`);
      expect(mail.text).toContain(`${config().baseUrl}/dashboard/agents`);
    }
    expect(await mailTo("member@example.com")).toEqual([]);
  });
});

describe("approving a setup (POST /api/private/agent/setup/authorize)", () => {
  it("refuses an organization the user is not a member of (404), and one where they are not owner (403)", async () => {
    const setup = (await startSetup()).json;
    const owner = await signedInOwner();
    const stranger = await createTestOrganization("Someone else");
    const foreign = await decide(owner.headers, {
      userCode: setup.userCode,
      organizationId: stranger.organization.id,
      decision: "approve",
    });
    expect(foreign.status).toBe(404);
    expect(foreign.json.error).toMatchObject({ type: "not_found_error", param: "organizationId" });

    await db().membership.create({
      data: {
        id: newId("membership"),
        organizationId: stranger.organization.id,
        userId: owner.userId,
        role: "MEMBER",
      },
    });
    const asMember = await decide(owner.headers, {
      userCode: setup.userCode,
      organizationId: stranger.organization.id,
      decision: "approve",
    });
    expect(asMember.status).toBe(403);
    expect(asMember.json.error.code).toBe("owner_only");
    expect((await checkIn(setup.checkinToken)).status).toBe(202);
  });

  it.each<
    [string, (owner: Awaited<ReturnType<typeof signedInOwner>>) => Record<string, string>, number, string]
  >([
    ["no session cookie", (owner) => ({ origin: owner.headers.origin }), 401, "signed_out"],
    [
      "an unknown session",
      (owner) => ({ origin: owner.headers.origin, cookie: "next-auth.session-token=nope" }),
      401,
      "signed_out",
    ],
    ["no Origin header", (owner) => ({ cookie: owner.headers.cookie }), 403, "cross_origin_request"],
    [
      "another site's Origin",
      (owner) => ({ cookie: owner.headers.cookie, origin: "https://evil.example" }),
      403,
      "cross_origin_request",
    ],
  ])("refuses a request with %s", async (_case, headers, expected, code) => {
    const setup = (await startSetup()).json;
    const owner = await signedInOwner();
    const response = await decide(headers(owner), {
      userCode: setup.userCode,
      organizationId: owner.organization.id,
      decision: "approve",
    });
    expect(response.status).toBe(expected);
    expect(response.json).toMatchObject({ success: false, error: { code } });
    expect((await checkIn(setup.checkinToken)).status).toBe(202);
  });

  it("refuses an approval from a session signed in more than 10 minutes ago (403), but takes its denial", async () => {
    const owner = await signedInOwner();
    await db().authSession.updateMany({
      where: { userId: owner.userId },
      data: { createdAt: new Date(Date.now() - 11 * 60_000) },
    });
    const setup = (await startSetup()).json;
    const asked = (decision: "approve" | "deny") =>
      decide(owner.headers, { userCode: setup.userCode, organizationId: owner.organization.id, decision });
    const approval = await asked("approve");
    expect(approval.status).toBe(403);
    expect(approval.json.error.code).toBe("reauthentication_required");
    expect((await checkIn(setup.checkinToken)).status).toBe(202);
    expect(await db().agentCredential.count({ where: { organizationId: owner.organization.id } })).toBe(0);
    expect((await asked("deny")).json).toEqual({ success: true, data: { status: "denied" } });
  });

  it.each<[string, string, string]>([
    ["an unknown code", "BBBB-BBBB", "userCode"],
    ["a code of the wrong shape", "ABCD-1234", "userCode"],
  ])("answers %s with 404", async (_case, userCode, param) => {
    const owner = await signedInOwner();
    const response = await decide(owner.headers, {
      userCode,
      organizationId: owner.organization.id,
      decision: "approve",
    });
    expect(response.status).toBe(404);
    expect(response.json.error.param).toBe(param);
  });
});

describe("typing the code (POST /api/private/agent/setup/lookup)", () => {
  it("refuses a member who owns no organization (403), before looking at the code", async () => {
    const setup = (await startSetup()).json;
    const owner = await signedInOwner();
    const member = await db().user.create({ data: { id: newId("user"), email: "plain@example.com" } });
    await db().membership.create({
      data: {
        id: newId("membership"),
        organizationId: owner.organization.id,
        userId: member.id,
        role: "MEMBER",
      },
    });
    const cookie = await startAuthSession(db(), member.id);
    const headers = { cookie: `${cookie.name}=${cookie.value}`, origin: owner.headers.origin };
    const looked = await lookUp(headers, setup.userCode);
    expect(looked.status).toBe(403);
    expect(looked.json.error.code).toBe("owner_only");
    const approved = await decide(headers, {
      userCode: setup.userCode,
      organizationId: owner.organization.id,
      decision: "approve",
    });
    expect(approved.status).toBe(403);
    expect(approved.json.error.code).toBe("owner_only");
    expect((await checkIn(setup.checkinToken)).status).toBe(202);
  });

  it("says when a typed code's setup expired or was decided", async () => {
    const owner = await signedInOwner();
    const decided = (await startSetup()).json;
    await decide(owner.headers, {
      userCode: decided.userCode,
      organizationId: owner.organization.id,
      decision: "deny",
    });
    const expired = (await startSetup({ agentName: "Late" })).json;
    await db().agentSetup.updateMany({
      where: { agentName: "Late" },
      data: { expiresAt: new Date(Date.now() - 1000) },
    });
    expect((await lookUp(owner.headers, decided.userCode)).json.error.code).toBe("setup_already_decided");
    expect((await lookUp(owner.headers, expired.userCode)).json.error.code).toBe("setup_expired");
  });

  it("allows a user 5 wrong codes, then answers 429 even for the right one", async () => {
    const setup = (await startSetup()).json;
    const owner = await signedInOwner();
    const statuses = [];
    for (const wrong of ["BBBB-BBBB", "CCCC-CCCC", "DDDD-DDDD", "FFFF-FFFF", "GGGG-GGGG", "HHHH-HHHH"]) {
      statuses.push((await lookUp(owner.headers, wrong)).status);
    }
    expect(statuses).toEqual([404, 404, 404, 404, 404, 429]);
    const right = await lookUp(owner.headers, setup.userCode);
    expect(right.status).toBe(429);
    expect(right.headers.get("retry-after")).toMatch(/^[1-9]\d*$/);
    const approve = await decide(owner.headers, {
      userCode: setup.userCode,
      organizationId: owner.organization.id,
      decision: "approve",
    });
    expect(approve.status).toBe(429);
    expect((await checkIn(setup.checkinToken)).status).toBe(202);
    // Another owner is not held back by this one's guesses.
    const other = await signedInOwner("Other owner");
    expect((await lookUp(other.headers, setup.userCode)).status).toBe(200);
  });
});

describe("limits", () => {
  it("limits setups started per client address", async () => {
    const address = { [clientAddressHeader]: "203.0.113.99" };
    const statuses = [];
    for (let i = 0; i < 52; i++) {
      statuses.push((await callRoute(start, "/x", { headers: address, body: { agentName: "Spam" } })).status);
    }
    expect(statuses.slice(0, 50).every((code) => code === 201)).toBe(true);
    expect(statuses.slice(50)).toEqual([429, 429]);
    expect((await startSetup()).status).toBe(201);
  });
});
