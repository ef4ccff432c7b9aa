import { describe, expect, it } from "vitest";
import { clientLimitKey, isDirectLocalRequest, resolveClientAddress } from "./client-address";

describe("resolveClientAddress", () => {
  it.each<[string, string | undefined, string | undefined, number, string]>([
    ["no proxy: the socket, whatever the client forwards", "198.51.100.7", "1.2.3.4", 0, "198.51.100.7"],
    ["no proxy, no header", "198.51.100.7", undefined, 0, "198.51.100.7"],
    ["IPv4-mapped socket address", "::ffff:198.51.100.7", undefined, 0, "198.51.100.7"],
    ["IPv6 socket address", "2001:db8::5", undefined, 0, "2001:db8::5"],
    ["one proxy: the entry it appended", "10.0.0.1", "1.2.3.4, 203.0.113.9", 1, "203.0.113.9"],
    ["one proxy, header sent twice", "10.0.0.1", ["1.2.3.4", "203.0.113.9"] as never, 1, "203.0.113.9"],
    ["two proxies", "10.0.0.1", "1.2.3.4, 203.0.113.9, 10.0.0.2", 2, "203.0.113.9"],
    ["one proxy but a direct request", "203.0.113.9", undefined, 1, "203.0.113.9"],
    ["more proxies than entries: the leftmost", "10.0.0.1", "203.0.113.9", 3, "203.0.113.9"],
    ["a proxy that wrote garbage", "10.0.0.1", "1.2.3.4, not-an-ip", 1, "unknown"],
    ["no socket address", undefined, undefined, 0, "unknown"],
  ])("%s", (_case, socket, forwarded, proxies, expected) => {
    expect(resolveClientAddress(socket, forwarded, proxies)).toBe(expected);
  });
});

describe("clientLimitKey", () => {
  it.each([
    ["198.51.100.7", "198.51.100.7"],
    ["2001:db8:1:2:3:4:5:6", "2001:db8:1:2::/64"],
    ["2001:db8:1:2:ffff::1", "2001:db8:1:2::/64"],
    ["2001:0db8:0001:0002::9", "2001:db8:1:2::/64"],
    ["2001:db8::1", "2001:db8:0:0::/64"],
    ["::1", "0:0:0:0::/64"],
    ["unknown", "unknown"],
  ])("%s counts as %s", (address, key) => {
    expect(clientLimitKey(address)).toBe(key);
  });
});

describe("isDirectLocalRequest", () => {
  it.each<[string, string | undefined, Record<string, string>, number, boolean]>([
    ["a browser on this machine", "127.0.0.1", { host: "127.0.0.1:3000" }, 0, true],
    ["localhost by name", "::1", { host: "localhost:3000" }, 0, true],
    ["IPv6 loopback in brackets", "::1", { host: "[::1]:3000" }, 0, true],
    ["an IPv4-mapped loopback socket", "::ffff:127.0.0.1", { host: "localhost" }, 0, true],
    ["another machine", "192.0.2.7", { host: "localhost:3000" }, 0, false],
    ["no socket address", undefined, { host: "localhost" }, 0, false],
    [
      "a proxy's X-Forwarded-For",
      "127.0.0.1",
      { host: "localhost", "x-forwarded-for": "203.0.113.1" },
      0,
      false,
    ],
    ["a proxy's Forwarded", "127.0.0.1", { host: "localhost", forwarded: "for=203.0.113.1" }, 0, false],
    ["a proxy's X-Real-IP", "127.0.0.1", { host: "localhost", "x-real-ip": "203.0.113.1" }, 0, false],
    [
      "a proxy's X-Forwarded-Host",
      "127.0.0.1",
      { host: "localhost", "x-forwarded-host": "a.example" },
      0,
      false,
    ],
    [
      "a proxy's X-Forwarded-Proto",
      "127.0.0.1",
      { host: "localhost", "x-forwarded-proto": "https" },
      0,
      false,
    ],
    ["a proxy's Via", "127.0.0.1", { host: "localhost", via: "1.1 edge" }, 0, false],
    ["a public Host passed on", "127.0.0.1", { host: "shop.example" }, 0, false],
    ["a Host that only starts like localhost", "127.0.0.1", { host: "localhost.shop.example" }, 0, false],
    ["no Host", "127.0.0.1", {}, 0, false],
    ["trusted proxies configured", "127.0.0.1", { host: "localhost" }, 1, false],
  ])("%s: %s", (_case, socket, headers, proxies, expected) => {
    expect(isDirectLocalRequest(socket, headers, proxies)).toBe(expected);
  });
});
