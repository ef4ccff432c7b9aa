import { NextRequest } from "next/server";
import { describe, expect, it } from "vitest";
import { POST as createPaylink } from "@/app/api/private/paylinks/create/route";
import { findSessionUser, sessionCookieName } from "@/lib/auth/session-cookie";
import { config } from "@/lib/config";
import { db } from "@/lib/db/client";
import { randomBase62 } from "@/lib/ids";
import { clientAddressHeader } from "@/lib/net/client-address";
import { callRoute } from "@/scripts/test-support/call-route";
import { createTestOrganization } from "@/scripts/test-support/fixtures";
import { POST as confirm } from "./confirm/route";
import { POST as register } from "./route";

// Emails go to the development mailbox (a table), where the test reads the link.
process.env.SERVICE_DEV_MAILBOX = "true";

let clients = 0;
const client = () => ({ [clientAddressHeader]: `192.0.2.${++clients}` });

const signup = (overrides: Record<string, unknown> = {}) => ({
  email: `new-${randomBase62(8).toLowerCase()}@example.com`,
  projectName: "Coffee Shop",
  agentName: "Claude Code",
  integrationIntent: "accept_payments",
  ...overrides,
});

const call = (body: unknown, headers: Record<string, string> = client()) =>
  callRoute(register, "/api/auth/agent/register", { headers, body });

async function confirmationToken(email: string) {
  const mail = await db().devEmail.findFirstOrThrow({ where: { to: email }, orderBy: { createdAt: "desc" } });
  const link = /https?:\/\/\S+\/agent\/register\/confirm\?token=(cc_arc_[0-9A-Za-z]{40})/.exec(mail.text);
  if (!link) throw new Error(`no confirmation link in ${mail.text}`);
  return link[1];
}

/** The confirmation page's form: the link's token and the pairing code the user typed. */
const openLink = (token: string, pairingCode?: string, origin = new URL(config().baseUrl).origin) =>
  callRoute(confirm, "/api/auth/agent/register/confirm", {
    headers: { ...client(), origin, "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ token, ...(pairingCode === undefined ? {} : { pairingCode }) }).toString(),
  });

describe("agent signup: register → confirm by email → collect the credential", () => {
  it("provisions the owner and organization, signs them in, and hands the credential out once", async () => {
    const input = signup({ ref: "docs-quickstart" });
    const first = await call(input);
    expect(first.status).toBe(202);
    expect(first.json).toEqual({
      object: "agent_registration",
      status: "pending_confirmation",
      checkinToken: expect.stringMatching(/^cc_rct_[0-9A-Za-z]{40}$/),
      pairingCode: expect.stringMatching(/^[BCDFGHJKLMNPQRSTVWXZ]{4}-[BCDFGHJKLMNPQRSTVWXZ]{4}$/),
      expiresAt: expect.any(String),
      pollIntervalSeconds: 5,
    });
    const lifetime = Date.parse(first.json.expiresAt) - Date.now();
    expect(lifetime).toBeGreaterThan(23.9 * 3600_000);
    expect(lifetime).toBeLessThanOrEqual(24 * 3600_000);
    const { checkinToken, pairingCode } = first.json;
    expect(await db().user.count({ where: { email: input.email } })).toBe(0);

    const poll = await call({ ...input, checkinToken });
    expect(poll.status).toBe(202);
    expect(poll.json).toEqual({
      object: "agent_registration",
      status: "pending_confirmation",
      expiresAt: first.json.expiresAt,
      pollIntervalSeconds: 5,
    });

    const token = await confirmationToken(input.email);
    const stored = JSON.stringify(
      await db().agentRegistration.findFirstOrThrow({ where: { email: input.email } }),
    );
    expect(stored).not.toContain(token);
    expect(stored).not.toContain(checkinToken);
    expect(stored).not.toContain(pairingCode);
    // The email names the address that asked, and sends the reader to type the agent's code.
    const mail = await db().devEmail.findFirstOrThrow({ where: { to: input.email } });
    expect(mail.text).toContain("at the address 192.0.2.");
    expect(mail.text).toContain("pairing code");
    expect(mail.text).not.toContain(pairingCode);

    const opened = await openLink(token, pairingCode.toLowerCase());
    expect(opened.status).toBe(303);
    expect(opened.headers.get("location")).toBe(`${config().baseUrl}/dashboard`);
    const cookie = /^([^=]+)=([^;]+);.*HttpOnly/i.exec(opened.headers.get("set-cookie") ?? "");
    expect(cookie?.[1]).toBe(sessionCookieName());
    const user = await findSessionUser(db(), cookie?.[2]);
    expect(user?.email).toBe(input.email);
    const membership = await db().membership.findFirstOrThrow({
      where: { userId: user?.id },
      include: { organization: true, user: true },
    });
    expect(membership.role).toBe("OWNER");
    expect(membership.organization.name).toBe("Coffee Shop");
    expect(membership.user.emailVerified).not.toBeNull();

    const collected = await call({ ...input, checkinToken });
    expect(collected.status).toBe(200);
    expect(collected.headers.get("cache-control")).toBe("no-store");
    expect(collected.json).toEqual({
      object: "agent_credential",
      status: "approved",
      credential: expect.stringMatching(/^sk_agent_[0-9A-Za-z]{40}$/),
      credentialId: expect.stringMatching(/^agc_/),
      agentName: "Claude Code",
      access: "write",
      organization: { id: membership.organizationId, name: "Coffee Shop" },
    });

    const paylink = await callRoute(createPaylink, "/api/private/paylinks/create", {
      headers: { authorization: `Bearer ${collected.json.credential}` },
      body: { name: "Espresso", amount: "3.50", currency: "USD" },
    });
    expect(paylink.status).toBeLessThan(300);
    expect(await db().paylink.count({ where: { organizationId: membership.organizationId } })).toBe(1);

    const again = await call({ ...input, checkinToken });
    expect(again.status).toBe(410);
    expect(again.json.error).toMatchObject({
      code: "registration_completed",
      message: expect.stringMatching(/setup/),
    });
    expect(await db().agentCredential.count({ where: { organizationId: membership.organizationId } })).toBe(
      1,
    );
    // The new owner hears that an agent credential was issued, and from where it was asked.
    const notice = await db().devEmail.findFirstOrThrow({
      where: { to: input.email, subject: "An agent was connected to Coffee Shop" },
    });
    expect(notice.text).toContain("Access: read and write");
    expect(notice.text).toMatch(/Requested from: 192\.0\.2\.\d+/);
    expect(notice.text).toContain(`${config().baseUrl}/dashboard/agents`);
  });

  it.each<[string, string | undefined]>([
    ["without a pairing code", undefined],
    ["with an empty pairing code", ""],
    ["with a wrong pairing code", "BBBB-BBBB"],
  ])("refuses a confirmation %s: the emailed link alone creates nothing", async (_case, typed) => {
    const input = signup();
    const { checkinToken, pairingCode } = (await call(input)).json;
    const token = await confirmationToken(input.email);
    const refused = await openLink(token, typed);
    expect(refused.status).toBe(303);
    expect(refused.headers.get("location")).toBe(
      `${config().baseUrl}/agent/register/confirm?token=${token}&error=wrong_pairing_code`,
    );
    expect(refused.headers.get("set-cookie")).toBeNull();
    expect(await db().user.count({ where: { email: input.email } })).toBe(0);
    expect((await call({ ...input, checkinToken })).status).toBe(202);
    // The right code still works afterwards.
    expect((await openLink(token, pairingCode)).headers.get("location")).toBe(
      `${config().baseUrl}/dashboard`,
    );
  });

  it("allows 5 wrong pairing codes per signup, then refuses even the right one", async () => {
    const input = signup();
    const { pairingCode } = (await call(input)).json;
    const token = await confirmationToken(input.email);
    const errors = [];
    for (const wrong of ["BBBB-BBBB", "CCCC-CCCC", "DDDD-DDDD", "FFFF-FFFF", "GGGG-GGGG", "HHHH-HHHH"]) {
      errors.push(
        new URL((await openLink(token, wrong)).headers.get("location") ?? "").searchParams.get("error"),
      );
    }
    expect(errors).toEqual([...Array(5).fill("wrong_pairing_code"), "rate_limited"]);
    const right = await openLink(token, pairingCode);
    expect(right.headers.get("location")).toMatch(/error=rate_limited$/);
    expect(await db().user.count({ where: { email: input.email } })).toBe(0);
  });

  it("confirms once: a second confirmation creates nothing more and says so", async () => {
    const input = signup();
    const { pairingCode } = (await call(input)).json;
    const token = await confirmationToken(input.email);
    const [a, b] = await Promise.all([openLink(token, pairingCode), openLink(token, pairingCode)]);
    const locations = [a, b].map((response) => response.headers.get("location")).sort();
    expect(locations).toEqual([
      `${config().baseUrl}/agent/register/confirm?token=${token}&error=registration_already_confirmed`,
      `${config().baseUrl}/dashboard`,
    ]);
    const third = await openLink(token, pairingCode);
    expect(third.headers.get("location")).toMatch(/error=registration_already_confirmed$/);
    expect(third.headers.get("set-cookie")).toBeNull();
    expect(await db().user.count({ where: { email: input.email } })).toBe(1);
    expect(
      await db().organization.count({
        where: { name: input.projectName, memberships: { some: { user: { email: input.email } } } },
      }),
    ).toBe(1);
  });

  it("gives two concurrent polls after confirmation exactly one credential", async () => {
    const input = signup();
    const { checkinToken, pairingCode } = (await call(input)).json;
    await openLink(await confirmationToken(input.email), pairingCode);
    const results = await Promise.all(Array.from({ length: 3 }, () => call({ ...input, checkinToken })));
    expect(results.map((result) => result.status).sort()).toEqual([200, 410, 410]);
    const user = await db().user.findUniqueOrThrow({
      where: { email: input.email },
      include: { memberships: true },
    });
    expect(
      await db().agentCredential.count({ where: { organizationId: user.memberships[0].organizationId } }),
    ).toBe(1);
  });

  it("refuses an email that already has an account (409) without sending anything", async () => {
    const { organization } = await createTestOrganization();
    const owner = await db().membership.findFirstOrThrow({
      where: { organizationId: organization.id },
      include: { user: true },
    });
    const response = await call(signup({ email: owner.user.email.toUpperCase() }));
    expect(response.status).toBe(409);
    expect(response.json.error).toMatchObject({
      type: "invalid_request_error",
      code: "account_exists",
      message: expect.stringMatching(/browser setup.*OAuth/),
    });
    expect(await db().devEmail.count({ where: { to: owner.user.email } })).toBe(0);
    expect(await db().agentRegistration.count({ where: { email: owner.user.email } })).toBe(0);
  });

  it("refuses to confirm when the email got an account in the meantime, and leaves that account alone", async () => {
    const input = signup();
    const { pairingCode } = (await call(input)).json;
    const token = await confirmationToken(input.email);
    await db().user.create({ data: { id: `usr_${randomBase62(24)}`, email: input.email } });
    const opened = await openLink(token, pairingCode);
    expect(opened.headers.get("location")).toMatch(/error=account_exists$/);
    expect(
      await db().organization.count({
        where: { name: input.projectName, memberships: { some: { user: { email: input.email } } } },
      }),
    ).toBe(0);
  });

  it("expires after 24 hours and is never revived, neither by polling nor by registering again", async () => {
    const input = signup();
    const { checkinToken, pairingCode } = (await call(input)).json;
    const token = await confirmationToken(input.email);
    await db().agentRegistration.updateMany({
      where: { email: input.email },
      data: { expiresAt: new Date(Date.now() - 1000) },
    });

    const poll = await call({ ...input, checkinToken });
    expect(poll.status).toBe(410);
    expect(poll.json.error.code).toBe("registration_expired");
    expect((await openLink(token, pairingCode)).headers.get("location")).toMatch(
      /error=registration_expired$/,
    );
    const again = await call(input);
    expect(again.status).toBe(410);
    expect(again.json.error).toMatchObject({
      code: "registration_expired",
      message: expect.stringMatching(/browser setup/),
    });
    expect(await db().user.count({ where: { email: input.email } })).toBe(0);
    expect(await db().agentRegistration.count({ where: { email: input.email } })).toBe(1);
  });

  it("expires a confirmed signup whose credential was never collected: browser setup, not a new signup", async () => {
    const input = signup();
    const { checkinToken, pairingCode } = (await call(input)).json;
    await openLink(await confirmationToken(input.email), pairingCode);
    await db().agentRegistration.updateMany({
      where: { email: input.email },
      data: { expiresAt: new Date(Date.now() - 1000) },
    });
    expect((await call({ ...input, checkinToken })).json.error.code).toBe("registration_expired");
    expect((await call(input)).json.error.code).toBe("account_exists");
  });

  it("refuses a second signup for an email while one is pending (409), sending no second email", async () => {
    const input = signup();
    await call(input);
    const second = await call(input);
    expect(second.status).toBe(409);
    expect(second.json.error.code).toBe("registration_pending");
    expect(await db().devEmail.count({ where: { to: input.email } })).toBe(1);
  });

  it.each<[string, Record<string, unknown>]>([
    ["another email", { email: "other@example.com" }],
    ["another project name", { projectName: "Tea Shop" }],
    ["another agent name", { agentName: "Cursor" }],
    ["a ref the first call did not send", { ref: "x" }],
  ])("answers a poll with %s with 400 registration_mismatch", async (_case, change) => {
    const input = signup();
    const { checkinToken } = (await call(input)).json;
    const response = await call({ ...input, ...change, checkinToken });
    expect(response.status).toBe(400);
    expect(response.json.error.code).toBe("registration_mismatch");
  });

  it.each<[string, string]>([
    ["an unknown token", `cc_rct_${"A".repeat(40)}`],
    ["a token of the wrong shape", "cc_rct_short"],
    ["a browser setup check-in token", `cc_act_${"A".repeat(40)}`],
  ])("answers a poll with %s with 401", async (_case, checkinToken) => {
    const response = await call({ ...signup(), checkinToken });
    expect(response.status).toBe(401);
    expect(response.json.error.code).toBe("invalid_checkin_token");
  });

  it.each<[string, Record<string, unknown>, string]>([
    ["a list of emails", { email: "a@x.com,b@y.com" }, "email"],
    ["no email", { email: undefined }, "email"],
    ["another integration intent", { integrationIntent: "send_payouts" }, "integrationIntent"],
    ["an empty project name", { projectName: " " }, "projectName"],
    ["a 65-character agent name", { agentName: "x".repeat(65) }, "agentName"],
    ["an unknown field", { apiKey: "sk_live_x" }, "apiKey"],
  ])("refuses %s (400) without sending or storing anything", async (_case, change, param) => {
    const input = signup(change);
    const before = await db().devEmail.count();
    const response = await call(input);
    expect(response.status).toBe(400);
    expect(response.json.error).toMatchObject({ type: "invalid_request_error", param });
    expect(await db().devEmail.count()).toBe(before);
  });

  it.each<[string, Record<string, string>]>([
    ["another site's Origin", { origin: "https://evil.example" }],
    ["no Origin", {}],
  ])("refuses a confirmation form posted with %s", async (_case, headers) => {
    const input = signup();
    await call(input);
    const token = await confirmationToken(input.email);
    const response = await callRoute(confirm, "/api/auth/agent/register/confirm", {
      headers: { ...client(), ...headers, "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ token }).toString(),
    });
    expect(response.status).toBe(403);
    expect(await db().user.count({ where: { email: input.email } })).toBe(0);
  });

  it("answers an unknown confirmation link by sending the browser back to the page", async () => {
    const opened = await openLink(`cc_arc_${"C".repeat(40)}`);
    expect(opened.status).toBe(303);
    expect(opened.headers.get("location")).toMatch(/error=resource_missing$/);
  });

  it("limits signups like sign-in emails: per recipient address", async () => {
    const email = `busy-${randomBase62(6).toLowerCase()}@example.com`;
    const statuses = [];
    for (let i = 0; i < 7; i++) statuses.push((await call(signup({ email }))).status);
    // One pending signup; later calls are refused, and past the address's email budget limited.
    expect(statuses[0]).toBe(202);
    expect(statuses.slice(1, 5)).toEqual([409, 409, 409, 409]);
    expect(statuses.slice(5)).toEqual([429, 429]);
  });
});

describe("the confirmation form's body, when it does not arrive whole", () => {
  const bytes = (text: string) => new TextEncoder().encode(text);
  it.each<[string, (controller: ReadableStreamDefaultController<Uint8Array>) => void, number, string]>([
    [
      "cut off before its end (the client went away)",
      (controller) => {
        controller.enqueue(bytes("token=cc_arc_"));
        controller.error(Object.assign(new Error("aborted"), { code: "ECONNRESET" }));
      },
      400,
      "body_incomplete",
    ],
    [
      "past 4 KiB without a Content-Length",
      (controller) => {
        controller.enqueue(bytes(`token=${"x".repeat(70_000)}`));
        controller.close();
      },
      413,
      "body_too_large",
    ],
  ])("%s: a 4xx in the envelope, never a 500", async (_name, start, status, code) => {
    const request = new NextRequest("http://localhost:3000/api/auth/agent/register/confirm", {
      method: "POST",
      headers: {
        ...client(),
        origin: new URL(config().baseUrl).origin,
        "content-type": "application/x-www-form-urlencoded",
      },
      body: new ReadableStream<Uint8Array>({ start }),
      duplex: "half",
    } as ConstructorParameters<typeof NextRequest>[1]);
    const response = await confirm(request, { params: Promise.resolve({}) });
    expect(response.status).toBe(status);
    expect(await response.json()).toMatchObject({ error: { code } });
  });
});
