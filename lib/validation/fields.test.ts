import { describe, expect, it } from "vitest";
import { recipientEmailField } from "./fields";

describe("recipientEmailField (sign-in, invitations, agent signup)", () => {
  it.each([
    "a@x.com,b@y.com",
    "a@x.com, b@y.com",
    "a@x.com;b@y.com",
    "a@x.com b@y.com",
    "a@x.com\nbcc: b@y.com",
    "<a@x.com>",
    "Alice <a@x.com>",
    '"a,b"@x.com',
    "a@localhost",
    "a@@x.com",
    "@x.com",
    "a@",
    "",
    `${"a".repeat(250)}@x.com`,
  ])("refuses %j", (email) => {
    expect(recipientEmailField.safeParse(email).success).toBe(false);
  });

  it.each([
    ["a@x.com", "a@x.com"],
    ["  Alice.Smith+shop@Example.COM ", "alice.smith+shop@example.com"],
  ])("takes %j as %j", (email, stored) => {
    expect(recipientEmailField.parse(email)).toBe(stored);
  });
});
