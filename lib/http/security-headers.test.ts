import { describe, expect, it } from "vitest";
import { apiSecurityHeaders, formTargetsFor, newNonce, securityHeaders } from "./security-headers";

describe("securityHeaders", () => {
  it.each([
    // https, development, HSTS, upgrade-insecure-requests, unsafe-eval
    [true, false, "max-age=63072000; includeSubDomains", true, false],
    [false, false, undefined, false, false],
    [false, true, undefined, false, true],
  ])("https %s, development %s", (https, development, hsts, upgrades, evals) => {
    const headers = securityHeaders({ nonce: "abc123", https, development });
    const policy = headers["Content-Security-Policy"];
    expect(headers["Strict-Transport-Security"]).toBe(hsts);
    expect(policy.includes("upgrade-insecure-requests")).toBe(upgrades);
    expect(policy.includes("'unsafe-eval'")).toBe(evals);
    expect(policy).toContain("script-src 'self' 'nonce-abc123' 'strict-dynamic'");
    expect(policy).toContain("frame-ancestors 'none'");
    expect(policy).not.toMatch(/script-src[^;]*'unsafe-inline'/);
    expect(headers).toMatchObject({
      "X-Frame-Options": "DENY",
      "X-Content-Type-Options": "nosniff",
      "Referrer-Policy": "same-origin",
    });
  });

  it.each([
    ["/oauth/authorize", "form-action 'self' https: http://127.0.0.1:* http://localhost:*"],
    ["/oauth/authorize/decision", "form-action 'self';"],
    ["/login", "form-action 'self';"],
    ["/dashboard/settings", "form-action 'self';"],
  ])("forms on %s may send the browser to: %s", (pathname, directive) => {
    const policy = securityHeaders({
      nonce: "n",
      https: false,
      development: false,
      formTargets: formTargetsFor(pathname),
    })["Content-Security-Policy"];
    expect(policy).toContain(directive);
  });

  it("makes a new unguessable nonce each time", () => {
    const nonces = new Set(Array.from({ length: 100 }, newNonce));
    expect(nonces.size).toBe(100);
    for (const nonce of nonces) expect(nonce).toMatch(/^[A-Za-z0-9+/]{24}$/);
  });
});

describe("apiSecurityHeaders", () => {
  it.each([
    [true, { "Strict-Transport-Security": "max-age=63072000; includeSubDomains" }],
    [false, {}],
  ])("https %s", (https, hsts) => {
    expect(apiSecurityHeaders(https)).toEqual({
      "Content-Security-Policy": "default-src 'none'; frame-ancestors 'none'",
      "X-Frame-Options": "DENY",
      "X-Content-Type-Options": "nosniff",
      "Referrer-Policy": "same-origin",
      ...hsts,
    });
  });
});
