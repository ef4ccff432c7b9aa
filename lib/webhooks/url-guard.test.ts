import { describe, expect, it } from "vitest";
import { isPrivateAddress, resolvesToPublicAddresses, webhookUrlProblem } from "./url-guard";

describe("webhook URL guard", () => {
  it.each<[string, string | null]>([
    ["https://hooks.example.com/webhooks", null],
    ["https://93.184.215.14/hook", null],
    ["http://hooks.example.com/webhooks", "must use https"],
    ["https://localhost/hook", "must be a public host"],
    ["https://127.0.0.1/hook", "must be a public address"],
    ["https://10.1.2.3/hook", "must be a public address"],
    ["https://172.20.0.1/hook", "must be a public address"],
    ["https://192.168.1.1/hook", "must be a public address"],
    ["https://169.254.169.254/latest/meta-data", "must be a public address"],
    ["https://[::1]/hook", "must be a public address"],
    ["https://[fd00::1]/hook", "must be a public address"],
    ["https://[::ffff:127.0.0.1]/hook", "must be a public address"],
    ["https://user:pass@hooks.example.com/", "must not contain credentials"],
    ["ftp://hooks.example.com/", "must use https"],
    ["not a url", "must be an absolute URL"],
  ])("in production %s -> %s", (url, problem) => {
    expect(webhookUrlProblem(url, false)).toBe(problem);
  });

  it("allows loopback and plain http only when explicitly enabled", () => {
    expect(webhookUrlProblem("http://127.0.0.1:4000/hook", true)).toBeNull();
    expect(webhookUrlProblem("ftp://127.0.0.1/", true)).toBe("must be http(s)");
  });

  it.each([
    ["8.8.8.8", false],
    ["127.0.0.2", true],
    ["::1", true],
    ["2606:4700::1111", false],
    ["nonsense", true],
  ])("isPrivateAddress(%s) = %s", (address, isPrivate) => {
    expect(isPrivateAddress(address)).toBe(isPrivate);
  });

  it("checks resolved addresses at send time", async () => {
    expect(await resolvesToPublicAddresses("https://localhost/hook", false)).toBe(false);
    expect(await resolvesToPublicAddresses("https://127.0.0.1/hook", false)).toBe(false);
    expect(await resolvesToPublicAddresses("https://127.0.0.1/hook", true)).toBe(true);
  });
});
