import { networkInterfaces } from "node:os";
import type { APIRequestContext } from "@playwright/test";
import { appPort, appSql, expect, mailboxPath, test } from "./fixtures";

// The sign-in route as an attacker calls it: next-auth's own endpoint, with its CSRF token.
async function askForLink(request: APIRequestContext, email: string) {
  const { csrfToken } = await (await request.get("/api/auth/csrf")).json();
  return request.post("/api/auth/signin/email", {
    form: { email, csrfToken, callbackUrl: "/dashboard", json: "true" },
  });
}

const rowsFor = async (emails: string[]) => ({
  mails: Number((await appSql(`SELECT count(*) FROM "DevEmail" WHERE "to" = ANY($1)`, [emails]))[0].count),
  tokens: Number(
    (await appSql(`SELECT count(*) FROM "VerificationToken" WHERE "identifier" = ANY($1)`, [emails]))[0]
      .count,
  ),
  users: Number((await appSql(`SELECT count(*) FROM "User" WHERE "email" = ANY($1)`, [emails]))[0].count),
});

test("sign-in refuses anything but one email address, before any mail, token or user", async ({
  request,
}) => {
  const stamp = Date.now();
  const bad = [
    `a-${stamp}@x.example,b-${stamp}@y.example`,
    `a-${stamp}@x.example b-${stamp}@y.example`,
    `a-${stamp}@x.example;b-${stamp}@y.example`,
    `<a-${stamp}@x.example>`,
    `a-${stamp}@x.example\nbcc: b-${stamp}@y.example`,
    `"a,b"-${stamp}@x.example`,
    `a-${stamp}@localhost`,
    "",
  ];
  for (const email of bad) {
    const response = await askForLink(request, email);
    expect(response.status(), email).toBe(400);
    expect((await response.json()).url).toMatch(/\/login\?error=InvalidEmail$/);
  }
  const touched = [...bad, ...bad.flatMap((email) => email.split(/[,; \n]+/))].map((email) =>
    email.trim().toLowerCase(),
  );
  expect(await rowsFor(touched)).toEqual({ mails: 0, tokens: 0, users: 0 });
});

test("sign-in emails to one address are limited per hour, whoever asks", async ({ request }) => {
  const email = `limited-${Date.now()}@shop.example`;
  const statuses = [];
  for (let i = 0; i < 6; i++) statuses.push((await askForLink(request, email)).status());
  expect(statuses).toEqual([200, 200, 200, 200, 200, 429]);
  const refused = await askForLink(request, email.toUpperCase());
  expect(refused.status()).toBe(429);
  expect(refused.headers()["retry-after"]).toMatch(/^[1-9]\d*$/);
  expect((await refused.json()).url).toMatch(/\/login\?error=TooManyEmails$/);
  expect(await rowsFor([email])).toMatchObject({ mails: 5, tokens: 5 });
});

test("the zero-setup start answers on loopback only", async ({ request }) => {
  expect((await request.get(mailboxPath())).status()).toBe(200);
  const external = Object.values(networkInterfaces())
    .flat()
    .filter((entry) => entry && !entry.internal && entry.family === "IPv4")
    .map((entry) => entry?.address);
  for (const address of external) {
    await expect(fetch(`http://${address}:${appPort}/dev/mailbox`)).rejects.toThrow();
  }
});
