import { describe, expect, it } from "vitest";
import { type DevMailboxAccess, devMailboxAccess, devMailboxCookie } from "./dev-mailbox-access";

const key = "k".repeat(43);
const now = new Date("2026-11-28T12:00:00Z");
const later = (seconds: number) => new Date(now.getTime() + seconds * 1000);
const traded = devMailboxAccess(key, { queryKey: key, cookie: undefined }, now) as { cookie: string };

describe("devMailboxAccess", () => {
  it("trades the key for a cookie that names its expiry and holds no key", () => {
    expect(traded).toMatchObject({ kind: "trade" });
    const [expires, signed] = traded.cookie.split(".");
    expect(Number(expires)).toBe(now.getTime() / 1000 + devMailboxCookie.maxAgeSeconds);
    expect(signed).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(traded.cookie).not.toContain(key);
  });

  it.each<
    [
      string,
      string | undefined,
      { queryKey: string | null; cookie: string | undefined },
      Date,
      DevMailboxAccess["kind"],
    ]
  >([
    [
      "no key configured, even with the right one",
      undefined,
      { queryKey: key, cookie: undefined },
      now,
      "closed",
    ],
    ["nothing presented", key, { queryKey: null, cookie: undefined }, now, "closed"],
    ["a wrong key", key, { queryKey: `${key}x`, cookie: undefined }, now, "closed"],
    ["an empty key", key, { queryKey: "", cookie: undefined }, now, "closed"],
    ["a wrong key beside a good cookie", key, { queryKey: "guess", cookie: traded.cookie }, now, "closed"],
    ["the traded cookie", key, { queryKey: null, cookie: traded.cookie }, later(60), "open"],
    [
      "the cookie once it expired",
      key,
      { queryKey: null, cookie: traded.cookie },
      later(devMailboxCookie.maxAgeSeconds),
      "closed",
    ],
    ["the cookie of another key", "o".repeat(43), { queryKey: null, cookie: traded.cookie }, now, "closed"],
    [
      "a cookie with its expiry moved on",
      key,
      { queryKey: null, cookie: traded.cookie.replace(/^\d+/, (s) => String(Number(s) + 3600)) },
      now,
      "closed",
    ],
    [
      "a cookie without a signature",
      key,
      { queryKey: null, cookie: traded.cookie.split(".")[0] },
      now,
      "closed",
    ],
    ["a malformed cookie", key, { queryKey: null, cookie: "x.y.z" }, now, "closed"],
  ])("%s", (_name, configured, presented, at, expected) => {
    expect(devMailboxAccess(configured, presented, at).kind).toBe(expected);
  });
});
