import { beforeAll, describe, expect, it } from "vitest";
import { signAuthorization, verifyAuthorization } from "./signed-authorization";

beforeAll(() => {
  process.env.SERVICE_SECRET_KEY ??= Buffer.alloc(32, 3).toString("base64");
});

const request = {
  clientId: "ocl_x",
  redirectUri: "http://127.0.0.1/cb",
  codeChallenge: "c".repeat(43),
  scope: "read",
  resource: "http://localhost:3000/mcp",
  state: "s",
  userId: "usr_a",
};

describe("signed authorization requests", () => {
  it("verifies for the user it was signed for", () => {
    expect(verifyAuthorization(signAuthorization(request), "usr_a")).toMatchObject(request);
  });

  it.each<[string, (signed: string) => [string, string, number?]]>([
    ["another user", (signed) => [signed, "usr_b"]],
    [
      "an edited payload",
      (signed) => {
        const [, signature] = signed.split(".");
        const edited = Buffer.from(
          JSON.stringify({ ...request, scope: "read write", expiresAt: 9e9 }),
        ).toString("base64url");
        return [`${edited}.${signature}`, "usr_a"];
      },
    ],
    ["a truncated signature", (signed) => [signed.slice(0, -4), "usr_a"]],
    ["an expired page", (signed) => [signed, "usr_a", Date.now() + 11 * 60_000]],
    ["garbage", () => ["abc", "usr_a"]],
  ])("refuses %s", (_case, tamper) => {
    const [signed, userId, now] = tamper(signAuthorization(request));
    expect(verifyAuthorization(signed, userId, now)).toBeNull();
  });
});
