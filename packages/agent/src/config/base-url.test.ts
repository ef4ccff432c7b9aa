import { describe, expect, it } from "vitest";
import { KitError } from "../http/errors";
import { approvalPageUrl, checkedApiBaseUrl } from "./base-url";
import { mayOpenBrowser } from "./settings";

describe("checkedApiBaseUrl", () => {
  it.each([
    ["https on a public host", "https://checkout.example.com/api"],
    ["http on localhost", "http://localhost:3000/api"],
    ["http on 127.0.0.1", "http://127.0.0.1:3000/api"],
    ["http anywhere in 127.0.0.0/8", "http://127.8.9.10/api"],
    ["http on 127.1 (normalised to 127.0.0.1)", "http://127.1:3000/api"],
    ["http on [::1]", "http://[::1]:3000/api"],
  ])("accepts %s", (_name, url) => {
    expect(checkedApiBaseUrl(url).href).toBe(new URL(url).href);
  });

  it.each([
    ["http on a public host", "http://checkout.example.com/api", "insecure_base_url"],
    ["http on a private address", "http://192.168.1.10:3000/api", "insecure_base_url"],
    ["http on 0.0.0.0", "http://0.0.0.0:3000/api", "insecure_base_url"],
    ["http on a look-alike of localhost", "http://localhost.example.com/api", "insecure_base_url"],
    ["http on 127.0.0.1 as a subdomain", "http://127.0.0.1.example.com/api", "insecure_base_url"],
    ["http on an IPv4-mapped IPv6 address", "http://[::ffff:8.8.8.8]/api", "insecure_base_url"],
    ["ftp", "ftp://checkout.example.com/api", "invalid_base_url"],
    ["file", "file:///etc/passwd", "invalid_base_url"],
    ["javascript", "javascript:alert(1)", "invalid_base_url"],
    ["ws", "ws://localhost:3000/api", "invalid_base_url"],
    ["not a URL", "checkout.example.com/api", "invalid_base_url"],
  ])("refuses %s with a usage error (exit 2) naming SERVICE_API_BASE_URL", (_name, url, code) => {
    const refusal = (() => {
      try {
        checkedApiBaseUrl(url);
      } catch (error) {
        return error;
      }
    })();
    expect(refusal).toBeInstanceOf(KitError);
    expect((refusal as KitError).exitCode).toBe(2);
    expect((refusal as KitError).envelope.error).toMatchObject({ code, param: "SERVICE_API_BASE_URL" });
  });
});

describe("approvalPageUrl", () => {
  it.each([
    ["https://checkout.example.com/api", "https://checkout.example.com/agent/setup"],
    ["https://example.com/checkout/api", "https://example.com/checkout/agent/setup"],
    ["http://localhost:3000/api", "http://localhost:3000/agent/setup"],
  ])("is the fixed page under the configured base URL: %s", (apiBaseUrl, expected) => {
    expect(approvalPageUrl(apiBaseUrl)).toBe(expected);
  });

  it("is never built for a base URL the kit refuses", () => {
    expect(() => approvalPageUrl("http://checkout.example.com/api")).toThrow(/https/);
  });
});

describe("mayOpenBrowser", () => {
  it.each([
    ["a person at a terminal", true, {}, true],
    ["a pipe", false, {}, false],
    ["no stdout terminal information", undefined, {}, false],
    ["Claude Code", true, { CLAUDECODE: "1" }, false],
    ["Cursor's agent", true, { CURSOR_AGENT: "1" }, false],
    ["CI", true, { CI: "true" }, false],
  ] as const)("%s → %s", (_name, isTTY, env, expected) => {
    expect(mayOpenBrowser(isTTY, env as NodeJS.ProcessEnv)).toBe(expected);
  });
});
