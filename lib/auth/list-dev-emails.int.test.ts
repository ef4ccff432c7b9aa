// The development mailbox is on for this file, as in the zero-setup start.
process.env.SERVICE_DEV_MAILBOX = "true";

import { createServer, request as httpRequest, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "../db/client";
import { directLocalHeader, isDirectLocal, stampClientAddress } from "../net/client-address";
import { listDevEmails } from "./list-dev-emails";
import { sendEmail } from "./send-email";

// Real HTTP on loopback: `app` does what scripts/serve.ts does in front of Next.js (stamp the
// request from its socket) and answers as /dev/mailbox does; `proxy` is a reverse proxy on the
// same machine, as nginx or Caddy would be, relaying with the headers a test gives it.
const servers: Server[] = [];
let app: string;

async function listen(server: Server) {
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  servers.push(server);
  return (server.address() as AddressInfo).port;
}

beforeAll(async () => {
  const port = await listen(
    createServer(async (incoming, outgoing) => {
      stampClientAddress(incoming, 0);
      const headers = new Headers();
      for (const [name, value] of Object.entries(incoming.headers))
        if (typeof value === "string") headers.set(name, value);
      const emails = await listDevEmails(db(), { directLocal: isDirectLocal(headers) });
      outgoing.writeHead(emails ? 200 : 404).end(JSON.stringify(emails?.map((email) => email.text) ?? []));
    }),
  );
  app = `http://127.0.0.1:${port}`;
  await sendEmail(db(), { to: "reader@mailbox.example", subject: "Sign in", text: "http://x/link" });
});
afterAll(() => Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve)))));

/** A same-host reverse proxy that relays to the app, replacing or adding `headers`. */
async function proxy(headers: (incoming: Record<string, string>) => Record<string, string>) {
  const port = await listen(
    createServer((incoming, outgoing) => {
      const relayed = httpRequest(
        `${app}${incoming.url}`,
        { method: incoming.method, headers: headers(incoming.headers as Record<string, string>) },
        (answer) => {
          outgoing.writeHead(answer.statusCode ?? 502);
          answer.pipe(outgoing);
        },
      );
      incoming.pipe(relayed);
    }),
  );
  return `http://127.0.0.1:${port}`;
}

/** GET with exactly these headers (fetch does not let a caller set Host). */
function get(url: string, headers: Record<string, string> = {}) {
  return new Promise<{ status: number; body: unknown }>((resolve, reject) => {
    httpRequest(url, { headers }, (answer) => {
      const chunks: Buffer[] = [];
      answer.on("data", (chunk: Buffer) => chunks.push(chunk));
      answer.on("end", () =>
        resolve({ status: answer.statusCode ?? 0, body: JSON.parse(Buffer.concat(chunks).toString()) }),
      );
    })
      .on("error", reject)
      .end();
  });
}

describe("the development mailbox behind a same-host proxy", () => {
  it("shows sign-in links to a browser on this machine, straight to the app", async () => {
    const direct = await get(`${app}/dev/mailbox`);
    expect(direct).toMatchObject({ status: 200, body: expect.arrayContaining(["http://x/link"]) });
    expect((await get(`${app}/dev/mailbox`, { host: "localhost:3000" })).status).toBe(200);
  });

  it.each<[string, (incoming: Record<string, string>) => Record<string, string>]>([
    ["adding X-Forwarded-For (nginx, Caddy)", (h) => ({ ...h, "x-forwarded-for": "203.0.113.9" })],
    ["adding Forwarded (RFC 7239)", (h) => ({ ...h, forwarded: "for=203.0.113.9" })],
    ["adding X-Real-IP", (h) => ({ ...h, "x-real-ip": "203.0.113.9" })],
    ["adding Via", (h) => ({ ...h, via: "1.1 proxy" })],
    ["passing on the public Host, no other header", (h) => ({ ...h, host: "shop.example" })],
    [
      "forging our stamp as well",
      (h) => ({ ...h, [directLocalHeader]: "1", "x-forwarded-for": "203.0.113.9" }),
    ],
  ])("answers 404 through a proxy %s", async (_case, headers) => {
    const through = await proxy(headers);
    expect(await get(`${through}/dev/mailbox`)).toEqual({ status: 404, body: [] });
  });

  it("ignores a client's own stamp sent straight to the app from elsewhere", async () => {
    const answer = await get(`${app}/dev/mailbox`, { host: "shop.example", [directLocalHeader]: "1" });
    expect(answer.status).toBe(404);
  });
});
