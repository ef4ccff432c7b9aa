import { describe, expect, it } from "vitest";
import { clientLimitKey, resolveClientAddress } from "./client-address";

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
