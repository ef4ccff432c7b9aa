import { describe, expect, it } from "vitest";
import { webhookUrlProblem } from "./url-guard";

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
    ["https://[::ffff:7f00:1]/hook", "must be a public address"],
    ["https://[64:ff9b::a9fe:a9fe]/hook", "must be a public address"],
    ["https://[2002:a00:1::1]/hook", "must be a public address"],
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
});
