import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as signIn from "@/app/api/auth/[...nextauth]/route";
import * as inngestEndpoint from "@/app/api/inngest/route";
import { GET as authorizeSignedOut } from "@/app/oauth/authorize/signed-out/route";
import { POST as register } from "@/app/oauth/register/route";
import { POST as token } from "@/app/oauth/token/route";
import { config } from "@/lib/config";
import { db } from "@/lib/db/client";
import { toServiceError } from "@/lib/errors";
import { clientAddressHeader } from "@/lib/net/client-address";
import { appRoutes } from "@/scripts/test-support/app-routes";
import { createTestOrganization } from "@/scripts/test-support/fixtures";
import { serveApp, serveRoute } from "@/scripts/test-support/serve-route";

// Text PostgreSQL cannot store (NUL, error 22021) and text that is not Unicode (a lone surrogate)
// is a 400 naming the field on every surface, over real HTTP against the routes and a real
// database: nothing reaches a query, nothing answers 500.

type Servers = Record<
  "app" | "register" | "token" | "signedOut" | "signIn" | "inngest",
  { url: string; close: () => Promise<void> }
>;
let servers: Servers;
let auth: { authorization: string };

beforeAll(async () => {
  const base = config().baseUrl;
  servers = {
    app: await serveApp(await appRoutes(), base),
    register: await serveRoute({ POST: register as never }, base),
    token: await serveRoute({ POST: token as never }, base),
    signedOut: await serveRoute({ GET: authorizeSignedOut as never }, base),
    signIn: await serveRoute({ GET: signIn.GET as never, POST: signIn.POST as never }, base),
    inngest: await serveRoute(
      {
        GET: inngestEndpoint.GET as never,
        POST: inngestEndpoint.POST as never,
        PUT: inngestEndpoint.PUT as never,
      },
      base,
    ),
  };
  ({ auth } = await createTestOrganization("Hostile Input Shop"));
});

afterAll(async () => {
  for (const server of Object.values(servers)) await server.close();
});

const json = { "content-type": "application/json" };
const session = { amount: "5.00", currency: "USD" };
let address = 0;
/** A client address of its own per request, so the public limits stay out of the way. */
const fresh = () => ({ [clientAddressHeader]: `198.51.100.${++address}` });

describe("NUL and lone surrogates are a 400 naming the field", () => {
  const cases: [string, () => [string, RequestInit], number, Record<string, unknown>][] = [
    [
      "session description with NUL",
      () => [
        `${servers.app.url}/api/checkout-sessions`,
        {
          method: "POST",
          headers: { ...auth, ...json },
          body: JSON.stringify({ ...session, description: "a\u0000b" }),
        },
      ],
      400,
      { code: "parameter_invalid", param: "description" },
    ],
    [
      "session merchantOrderId with a lone surrogate",
      () => [
        `${servers.app.url}/api/checkout-sessions`,
        {
          method: "POST",
          headers: { ...auth, ...json },
          body: JSON.stringify({ ...session, merchantOrderId: "x\ud800" }),
        },
      ],
      400,
      { code: "parameter_invalid", param: "merchantOrderId" },
    ],
    [
      "metadata value with an escaped NUL",
      () => [
        `${servers.app.url}/api/checkout-sessions`,
        {
          method: "POST",
          headers: { ...auth, ...json },
          body: `{"amount":"5.00","currency":"USD","metadata":{"order":"\\u0000"}}`,
        },
      ],
      400,
      { code: "parameter_invalid", param: "metadata.order" },
    ],
    [
      "metadata key with NUL",
      () => [
        `${servers.app.url}/api/checkout-sessions`,
        {
          method: "POST",
          headers: { ...auth, ...json },
          body: `{"amount":"5.00","currency":"USD","metadata":{"a\\u0000":"x"}}`,
        },
      ],
      400,
      { code: "parameter_invalid", param: "metadata.a\uFFFD" },
    ],
    [
      "refund reason with a lone low surrogate",
      () => [
        `${servers.app.url}/api/private/refunds`,
        { method: "POST", headers: { ...auth, ...json }, body: `{"invoiceId":"inv_x","reason":"\\udc00"}` },
      ],
      400,
      { code: "parameter_invalid", param: "reason" },
    ],
    [
      "refund id in the path",
      () => [`${servers.app.url}/api/private/refunds/%00`, { headers: auth }],
      400,
      { code: "parameter_invalid", param: "id" },
    ],
    [
      "list query parameter",
      () => [`${servers.app.url}/api/private/refunds?page=%00`, { headers: auth }],
      400,
      { code: "parameter_invalid", param: "page" },
    ],
    [
      "agent setup name, no credentials",
      () => [
        `${servers.app.url}/api/agent/setup/start`,
        {
          method: "POST",
          headers: { ...fresh(), ...json },
          body: JSON.stringify({ agentName: "bot\u0000" }),
        },
      ],
      400,
      { code: "parameter_invalid", param: "agentName" },
    ],
    [
      "JSON nested past the limit",
      () => [
        `${servers.app.url}/api/checkout-sessions`,
        { method: "POST", headers: { ...auth, ...json }, body: `${"[".repeat(10_000)}${"]".repeat(10_000)}` },
      ],
      400,
      { code: "input_too_deep" },
    ],
  ];
  it.each(cases)("%s", async (_name, build, status, error) => {
    const [url, init] = build();
    const response = await fetch(url, init);
    expect(response.status).toBe(status);
    expect((await response.json()).error).toMatchObject(error);
  });

  const oauthCases: [string, () => [string, RequestInit], number, Record<string, unknown>][] = [
    [
      "registration redirect_uris",
      () => [
        `${servers.register.url}/oauth/register`,
        {
          method: "POST",
          headers: { ...fresh(), ...json },
          body: JSON.stringify({
            redirect_uris: ["http://127.0.0.1:1/cb\u0000"],
            token_endpoint_auth_method: "none",
          }),
        },
      ],
      400,
      { error: "invalid_client_metadata", error_description: expect.stringContaining("redirect_uris.0") },
    ],
    [
      "token request client_id",
      () => [
        `${servers.token.url}/oauth/token`,
        {
          method: "POST",
          headers: { ...fresh(), "content-type": "application/x-www-form-urlencoded" },
          body: "grant_type=refresh_token&refresh_token=x&client_id=%00",
        },
      ],
      400,
      { error: "invalid_request", error_description: expect.stringContaining("client_id") },
    ],
    [
      "Basic credentials that are not percent-encoding",
      () => [
        `${servers.token.url}/oauth/token`,
        {
          method: "POST",
          headers: {
            ...fresh(),
            authorization: `Basic ${Buffer.from("%ff:%00").toString("base64")}`,
            "content-type": "application/x-www-form-urlencoded",
          },
          body: "grant_type=refresh_token&refresh_token=x",
        },
      ],
      401,
      { error: "invalid_client" },
    ],
    [
      "signed-out authorization request client_id",
      () => [
        `${servers.signedOut.url}/oauth/authorize/signed-out?client_id=%00&response_type=code`,
        { headers: fresh() },
      ],
      400,
      {
        error: {
          type: "invalid_request_error",
          code: "parameter_invalid",
          param: "client_id",
          message: expect.any(String),
        },
      },
    ],
  ];
  it.each(oauthCases)("OAuth: %s", async (_name, build, status, body) => {
    const [url, init] = build();
    const response = await fetch(url, init);
    expect(response.status).toBe(status);
    expect(await response.json()).toMatchObject(body);
  });

  it("maps PostgreSQL's own refusal of NUL (22021) to a 400, should one slip past", async () => {
    const refusal = await db()
      .organization.findFirst({ where: { id: "a\u0000b" } })
      .catch((error: unknown) => error);
    const known = toServiceError(refusal, "req_test");
    expect({ status: known.status, code: known.code }).toEqual({ status: 400, code: "parameter_invalid" });
    expect(known.message).not.toMatch(/prisma|byte sequence|UTF8/i);
  });
});

describe("/oauth/token limits failed client authentication", () => {
  const attempt = (clientAddress: string, clientId: string) =>
    fetch(`${servers.token.url}/oauth/token`, {
      method: "POST",
      headers: { [clientAddressHeader]: clientAddress, "content-type": "application/x-www-form-urlencoded" },
      body: `grant_type=refresh_token&refresh_token=x&client_id=${clientId}&client_secret=wrong`,
    });

  it("per client address: 429 with Retry-After well within 60 failures", async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 60 && !statuses.includes(429); i++) {
      statuses.push((await attempt("203.0.113.7", `ocl_guess${i}`)).status);
    }
    expect(statuses.at(-1)).toBe(429);
    expect(statuses.slice(0, -1).every((status) => status === 401)).toBe(true);
    const refused = await attempt("203.0.113.7", "ocl_other");
    expect(refused.status).toBe(429);
    expect(refused.headers.get("retry-after")).toMatch(/^[1-9]\d*$/);
    expect((await refused.json()).error).toBe("temporarily_unavailable");
  });

  it("per client id, from many addresses", async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 60 && !statuses.includes(429); i++) {
      statuses.push((await attempt(`192.0.2.${i + 1}`, "ocl_targeted")).status);
    }
    expect(statuses.at(-1)).toBe(429);
    expect(statuses.length).toBeLessThanOrEqual(31);
  });
});

describe("the framework endpoints answer errors in the envelope", () => {
  const form = { "content-type": "application/x-www-form-urlencoded" };
  const cases: [string, () => [string, RequestInit], number, Record<string, unknown>][] = [
    ...["GET", "POST", "PUT"].map((method): (typeof cases)[number] => [
      `${method} /api/inngest with the in-process job engine`,
      () => [`${servers.inngest.url}/api/inngest`, { method, body: method === "GET" ? undefined : "{}" }],
      404,
      { error: { type: "not_found_error", code: "unknown_path", message: expect.any(String) } },
    ]),
    [
      "an action next-auth does not have",
      () => [`${servers.signIn.url}/api/auth/nothing`, {}],
      404,
      { error: expect.objectContaining({ code: "unknown_path" }) },
    ],
    [
      "a method the action does not take",
      () => [`${servers.signIn.url}/api/auth/csrf`, { method: "POST", headers: form, body: "x=1" }],
      405,
      { error: expect.objectContaining({ code: "method_not_allowed" }) },
    ],
    [
      "JSON next-auth cannot parse",
      () => [
        `${servers.signIn.url}/api/auth/callback/email`,
        { method: "POST", headers: json, body: '{"a":' },
      ],
      400,
      { error: expect.objectContaining({ code: "invalid_json" }) },
    ],
    [
      "NUL in a form field",
      () => [
        `${servers.signIn.url}/api/auth/signout`,
        { method: "POST", headers: form, body: "csrfToken=a%00b&callbackUrl=%2F" },
      ],
      400,
      { error: expect.objectContaining({ code: "parameter_invalid", param: "csrfToken" }) },
    ],
    [
      "a body over 8 KiB",
      () => [
        `${servers.signIn.url}/api/auth/callback/email`,
        { method: "POST", headers: form, body: `token=${"x".repeat(9000)}` },
      ],
      413,
      { error: expect.objectContaining({ code: "body_too_large" }) },
    ],
    [
      "a sign-in email that is not one address",
      () => [
        `${servers.signIn.url}/api/auth/signin/email`,
        { method: "POST", headers: { ...fresh(), ...form }, body: "email=a%40x.example%2Cb%40y.example" },
      ],
      400,
      {
        url: expect.stringMatching(/\/login\?error=InvalidEmail$/),
        error: expect.objectContaining({ code: "invalid_email", param: "email" }),
      },
    ],
    [
      "a sign-in email with NUL, sent as JSON",
      () => [
        `${servers.signIn.url}/api/auth/signin/email`,
        {
          method: "POST",
          headers: { ...fresh(), ...json },
          body: JSON.stringify({ email: "a\u0000@x.example" }),
        },
      ],
      400,
      { error: expect.objectContaining({ code: "parameter_invalid", param: "email" }) },
    ],
  ];
  it.each(cases)("%s", async (_name, build, status, body) => {
    const [url, init] = build();
    const response = await fetch(url, init);
    expect(response.status).toBe(status);
    expect(response.headers.get("x-request-id")).toMatch(/^req_\w+$/);
    if (status === 405) expect(response.headers.get("allow")).toBe("GET, HEAD, OPTIONS");
    expect(await response.json()).toMatchObject({ ...body, requestId: expect.stringMatching(/^req_/) });
  });
});
