import { describe, expect, it } from "vitest";
import { multilineText, oneLineText, recipientEmailField } from "./fields";

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

describe("oneLineText and multilineText (what receipts say of the merchant)", () => {
  it.each([
    ["a line break", "Acme\nVisit https://evil.example"],
    ["a carriage return", "Acme\rGmbH"],
    ["a tab", "DE\t123"],
    ["a NUL", "Acme\u0000"],
    ["a C1 control", "Acme\u0085GmbH"],
    ["a left-to-right mark", "Acme\u200e"],
    ["a right-to-left mark", "Acme\u200f"],
    ["a right-to-left embedding", "\u202bAcme"],
    ["a right-to-left override", "Acme \u202eelpmaxe.live@troppus"],
    ["a pop directional formatting", "Acme\u202c"],
    ["a left-to-right isolate", "\u2066Acme"],
    ["a pop directional isolate", "Acme\u2069"],
  ])("one line refuses %s", (_what, value) => {
    expect(oneLineText(200).safeParse(value).success).toBe(false);
  });

  it.each([
    ["a right-to-left override", "Hauptstr. 1\n\u202e10115 Berlin"],
    ["a first strong isolate", "\u2068Hauptstr. 1"],
    ["a tab", "Hauptstr.\t1"],
    ["a bell", "Hauptstr. 1\u0007"],
  ])("lines refuse %s", (_what, value) => {
    expect(multilineText(500).safeParse(value).success).toBe(false);
  });

  it.each([
    ["one line", oneLineText(200), "  Acme GmbH ", "Acme GmbH"],
    ["non-Latin text", oneLineText(200), "株式会社アクメ", "株式会社アクメ"],
    ["lines", multilineText(500), "Hauptstr. 1\n10115 Berlin", "Hauptstr. 1\n10115 Berlin"],
    [
      "a form's CRLF lines",
      multilineText(500),
      "Hauptstr. 1\r\n10115 Berlin\r\n",
      "Hauptstr. 1\n10115 Berlin",
    ],
  ])("takes %s", (_what, field, value, stored) => {
    expect(field.parse(value)).toBe(stored);
  });
});
