import { describe, expect, it } from "vitest";
import { isPrivateAddress } from "./private-address";

describe("isPrivateAddress", () => {
  it.each([
    ["8.8.8.8", false],
    ["93.184.215.14", false],
    ["2606:4700::1111", false],
    ["::ffff:8.8.8.8", false],
    ["127.0.0.2", true],
    ["10.1.2.3", true],
    ["169.254.169.254", true],
    ["100.64.0.1", true],
    ["0.0.0.0", true],
    ["::", true],
    ["::1", true],
    ["fd00::1", true],
    ["fe80::1", true],
    // IPv4-mapped, in both spellings (URL parsing turns the first into the second).
    ["::ffff:127.0.0.1", true],
    ["::ffff:7f00:1", true],
    ["::ffff:a9fe:a9fe", true],
    // Deprecated IPv4-compatible.
    ["::127.0.0.1", true],
    // NAT64 (64:ff9b::169.254.169.254), local-use NAT64, 6to4 (2002:0a00:0001:: = 10.0.0.1), Teredo.
    ["64:ff9b::a9fe:a9fe", true],
    ["64:ff9b::808:808", true],
    ["64:ff9b:1::1", true],
    ["2002:a00:1::1", true],
    ["2002:808:808::1", true],
    ["2001:0:4136:e378::1", true],
    ["nonsense", true],
    ["", true],
  ])("%s -> %s", (address, isPrivate) => {
    expect(isPrivateAddress(address)).toBe(isPrivate);
  });
});
