// A small public budget, read from configuration on first use in this file's process.
process.env.SERVICE_RATE_LIMIT_PUBLIC_PER_MINUTE = "3";

import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { NextRequest } from "next/server";
import { afterAll, describe, expect, it } from "vitest";
import { GET as publicSession } from "@/app/api/public/checkout-sessions/[id]/route";
import { clientAddressHeader, stampClientAddress } from "./client-address";

// A real HTTP server that does what scripts/serve.ts does in front of Next.js (stamp the client
// address from the socket), then hands the request to a real public route handler.
const servers: Server[] = [];
async function serve(trustedProxies: number) {
  const server = createServer(async (incoming, outgoing) => {
    stampClientAddress(incoming, trustedProxies);
    const headers = new Headers();
    for (const [name, value] of Object.entries(incoming.headers))
      if (value !== undefined) headers.set(name, Array.isArray(value) ? value.join(", ") : value);
    const response = await publicSession(new NextRequest(`http://localhost${incoming.url}`, { headers }), {
      params: Promise.resolve({ id: "ycs_000000000000000000000000" }),
    });
    outgoing.writeHead(response.status, Object.fromEntries(response.headers));
    outgoing.end(await response.text());
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  servers.push(server);
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}
afterAll(() => Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve)))));

const statuses = async (url: string, forwardedFor: string[]) => {
  const seen = [];
  for (const entry of forwardedFor)
    seen.push(
      // A client also forging the header the server stamps gets nowhere with it either.
      (await fetch(url, { headers: { "x-forwarded-for": entry, [clientAddressHeader]: entry } })).status,
    );
  return seen;
};

describe("the client address public limits count", () => {
  it("is the socket's when no proxy is trusted: a forged X-Forwarded-For buys no new budget", async () => {
    const url = await serve(0);
    // Every request comes from 127.0.0.1 and claims another address.
    expect(await statuses(url, ["203.0.113.1", "203.0.113.2", "203.0.113.3", "203.0.113.4"])).toEqual([
      404, 404, 404, 429,
    ]);
    expect(await statuses(url, ["198.51.100.1, 203.0.113.5"])).toEqual([429]);
  });

  it("is the entry the one trusted proxy appended, not what the client wrote before it", async () => {
    const url = await serve(1);
    // The client forges a fresh left entry each time; the proxy's own entry (the last) is the same.
    expect(
      await statuses(url, [
        "1.1.1.1, 192.0.2.10",
        "1.1.1.2, 192.0.2.10",
        "1.1.1.3, 192.0.2.10",
        "192.0.2.10",
      ]),
    ).toEqual([404, 404, 404, 429]);
    // Another client behind the same proxy has its own budget.
    expect(await statuses(url, ["192.0.2.11"])).toEqual([404]);
  });
});
