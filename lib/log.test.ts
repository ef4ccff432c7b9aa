import { Writable } from "node:stream";
import { describe, expect, it } from "vitest";
import { createLogger, maskCredentials, maskTarget } from "./log";

function capture() {
  const lines: string[] = [];
  const stream = new Writable({
    write(chunk, _encoding, done) {
      lines.push(String(chunk));
      done();
    },
  });
  return { logger: createLogger(stream, "info"), lines };
}

const key = "sk_live_AbCdEfGhIjKlMnOpQrStUvWxYz0123456789ABCD";
const secret = "whsec_c2VjcmV0c2VjcmV0c2VjcmV0c2VjcmV0MTIzNA==";

describe("logging", () => {
  it("writes one JSON object per line with level and time", () => {
    const { logger, lines } = capture();
    logger.info({ requestId: "req_1" }, "hello");
    const entry = JSON.parse(lines[0]);
    expect(entry).toMatchObject({
      level: "info",
      msg: "hello",
      requestId: "req_1",
      service: "crypto-checkout",
    });
    expect(Date.parse(entry.time)).not.toBeNaN();
  });

  it.each([
    ["a secret field", { apiKey: key }],
    ["a nested secret field", { request: { authorization: `Bearer ${key}` } }],
    ["a key inside a message-like field", { detail: `bad key ${key} given` }],
    ["a signing secret in a nested array", { items: [{ note: secret }] }],
    ["an error whose message carries a key", { err: new Error(`lookup failed for ${key}`) }],
  ])("never lets %s through", (_case, fields) => {
    const { logger, lines } = capture();
    logger.info(fields, `message mentioning ${key}`);
    const text = lines.join("");
    expect(text).not.toContain(key);
    expect(text).not.toContain(secret);
    expect(text).toMatch(/redacted/);
  });

  it.each([
    "sk_agent_AbCdEfGhIjKlMnOpQrStUvWxYz0123456789ABCD",
    "cc_at_AbCdEfGhIjKlMnOpQrStUvWxYz0123456789ABCD",
    "cc_rt_AbCdEfGhIjKlMnOpQrStUvWxYz0123456789ABCD",
    "cc_ac_AbCdEfGhIjKlMnOpQrStUvWxYz0123456789ABCD",
    "cc_ast_AbCdEfGhIjKlMnOpQrStUvWxYz0123456789ABCD",
    "cc_act_AbCdEfGhIjKlMnOpQrStUvWxYz0123456789ABCD",
    "cc_rct_AbCdEfGhIjKlMnOpQrStUvWxYz0123456789ABCD",
    "cc_arc_AbCdEfGhIjKlMnOpQrStUvWxYz0123456789ABCD",
  ])("masks %s wherever it appears", (credential) => {
    const kind = credential.slice(0, credential.indexOf("_", 3));
    expect(maskCredentials(`GET /x?token=${credential} failed`)).toBe(
      `GET /x?token=${kind}_[redacted] failed`,
    );
    const { logger, lines } = capture();
    logger.info({ note: `Bearer ${credential}` }, `saw ${credential}`);
    expect(lines.join("")).not.toContain(credential);
  });

  it("masks a refund claim link's token in a path, logged or in a message", () => {
    const token = "Zq3xV9-kL2_mN8pR4sT6uW1yA5cE7gI0jO3bD6fH9kM";
    expect(maskCredentials(`POST /refund/${token} 405`)).toBe("POST /refund/[redacted] 405");
    expect(maskCredentials("/refund/new")).toBe("/refund/new");
    const { logger, lines } = capture();
    logger.info({ path: `/refund/${token}` }, `claim at https://pay.example/refund/${token}`);
    expect(lines.join("")).not.toContain(token);
  });

  const claimToken = "Zq3xV9-kL2_mN8pR4sT6uW1yA5cE7gI0jO3bD6fH9kM";
  it.each([
    ["/api/v1/invoices", "/api/v1/invoices"],
    ["/api/v1/invoices?limit=10", "/api/v1/invoices?limit=[redacted]"],
    ["/cb?code=abc123&state=xyz", "/cb?code=[redacted]&state=[redacted]"],
    ["/x?token=opaque-value-of-unknown-kind", "/x?token=[redacted]"],
    ["/x?bare-secret-without-name", "/x?[redacted]"],
    ["/x?a=1&&b=", "/x?a=[redacted]&&b=[redacted]"],
    ["/x?a=b=c", "/x?a=[redacted]"],
    [`/refund/${claimToken}?lang=de`, "/refund/[redacted]?lang=[redacted]"],
    [`/x?sk_live_${"a".repeat(20)}=1`, "/x?sk_live_[redacted]=[redacted]"],
    [`https://pay.example/refund/${claimToken}?t=1`, "https://pay.example/refund/[redacted]?t=[redacted]"],
    ["/x?", "/x?"],
  ])("maskTarget(%s) logs %s", (target, logged) => {
    expect(maskTarget(target)).toBe(logged);
  });

  it("masks credentials but keeps their kind", () => {
    expect(maskCredentials(`a ${key} b ${secret}`)).toBe("a sk_live_[redacted] b whsec_[redacted]");
    expect(maskCredentials("sk_live_ alone")).toBe("sk_live_ alone");
  });
});
