// The development mailbox is on for this file, as in the zero-setup start.
process.env.SERVICE_DEV_MAILBOX = "true";

import { describe, expect, it } from "vitest";
import { db } from "../db/client";
import { listDevEmails } from "./list-dev-emails";
import { sendEmail } from "./send-email";

describe("the development mailbox", () => {
  it.each([
    ["IPv4 loopback", "127.0.0.1", true],
    ["another 127/8 address", "127.0.0.2", true],
    ["IPv6 loopback", "::1", true],
    ["a public address", "203.0.113.5", false],
    ["a private network address", "10.0.0.2", false],
    ["a link-local IPv6 address", "fe80::1", false],
    ["an address the server could not tell", "unknown", false],
  ])("shows sign-in links to %s (%s): %s", async (_case, clientAddress, shown) => {
    await sendEmail(db(), { to: "reader@mailbox.example", subject: "Sign in", text: "http://x/link" });
    const emails = await listDevEmails(db(), { clientAddress });
    if (shown) expect(emails?.map((email) => email.to)).toContain("reader@mailbox.example");
    else expect(emails).toBeNull();
  });
});
