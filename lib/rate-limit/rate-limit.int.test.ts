import pg from "pg";
import { describe, expect, inject, it } from "vitest";
import { GET as organization } from "@/app/api/private/organization/current/route";
import { GET as publicSession } from "@/app/api/public/checkout-sessions/[id]/route";
import { callRoute } from "@/scripts/test-support/call-route";
import { createTestOrganization } from "@/scripts/test-support/fixtures";
import { config } from "../config";
import { createPool } from "../db/create-pool";
import { clientAddressHeader } from "../net/client-address";
import { createRateLimiters } from "./rate-limit";

// Limits are read from configuration on first use in this file's process.
process.env.SERVICE_RATE_LIMIT_API_PER_SECOND = "5";
process.env.SERVICE_RATE_LIMIT_PUBLIC_PER_MINUTE = "3";

describe("rate limits", () => {
  it("answers 429 with Retry-After once a key spends its budget, without touching other keys", async () => {
    const calm = await createTestOrganization();
    // The window is one second: the calm key warms the route up first, and a busy key's seven
    // calls go out at once. A loaded machine can still stretch them past the second (each one
    // looks its key up on this file's one database connection); then they ran over two windows and
    // the count says nothing, so a new busy key tries again.
    expect((await callRoute(organization, "/x", { headers: calm.auth })).status).toBe(200);
    let answers: Awaited<ReturnType<typeof callRoute>>[] = [];
    for (let attempt = 0; attempt < 5; attempt += 1) {
      const busy = await createTestOrganization();
      const started = performance.now();
      answers = await Promise.all(
        Array.from({ length: 7 }, () => callRoute(organization, "/x", { headers: busy.auth })),
      );
      if (performance.now() - started < 900) break;
      answers = [];
    }
    expect(answers.map((answer) => answer.status).sort()).toEqual([200, 200, 200, 200, 200, 429, 429]);
    const limited = answers.find((answer) => answer.status === 429) as (typeof answers)[number];
    expect(limited.headers.get("retry-after")).toMatch(/^[1-9]\d*$/);
    expect(limited.json.error).toMatchObject({ type: "rate_limit_error", code: "rate_limited" });
    expect((await callRoute(organization, "/x", { headers: calm.auth })).status).toBe(200);
  });

  it("limits public endpoints per client address", async () => {
    const from = (ip: string) =>
      callRoute(publicSession, "/x", {
        headers: { [clientAddressHeader]: ip },
        params: { id: "ycs_000000000000000000000000" },
      });
    const statuses = [];
    for (let i = 0; i < 4; i++) statuses.push((await from("203.0.113.7")).status);
    expect(statuses).toEqual([404, 404, 404, 429]);
    expect((await from("203.0.113.8")).status).toBe(404);
  });
});

// The shared store is for several app instances on a PostgreSQL server; the embedded database
// (one instance by nature) multiplexes connections into one session and cannot host it.
const onServer = inject("testDatabase").mode === "server";
if (onServer) {
  describe("the PostgreSQL store", () => {
    it("shares one budget between app instances", async () => {
      const settings = { ...config().rateLimits, publicPerMinute: 3, store: "postgres" as const };
      const pools = [1, 2].map(() => createPool(process.env.DATABASE_URL, 1));
      const [instanceA, instanceB] = pools.map((pool) => createRateLimiters(settings, () => pool));
      await instanceA.publicIp.consume("198.51.100.1");
      await instanceB.publicIp.consume("198.51.100.1");
      await instanceA.publicIp.consume("198.51.100.1");
      await expect(instanceB.publicIp.consume("198.51.100.1")).rejects.toMatchObject({ remainingPoints: 0 });
      await Promise.all(pools.map((pool) => pool.end()));
    });

    it("keeps counting after the server closes the store's idle connection", async () => {
      const settings = { ...config().rateLimits, publicPerMinute: 3, store: "postgres" as const };
      const pool = createPool(process.env.DATABASE_URL, 1);
      const limiters = createRateLimiters(settings, () => pool);
      await limiters.publicIp.consume("198.51.100.9");
      // The store's one connection, by its own process id: a connection of the test before can
      // still be listed for a moment after its pool ended.
      const { rows: store } = await pool.query<{ pid: number }>("SELECT pg_backend_pid() AS pid");
      // As a restart or failover would: unheard, the pool's error takes the process down.
      const admin = new pg.Client(process.env.DATABASE_URL);
      await admin.connect();
      const { rows } = await admin.query("SELECT pg_terminate_backend($1) AS ended", [store[0].pid]);
      await admin.end();
      expect(rows).toEqual([{ ended: true }]);
      await expect.poll(() => pool.totalCount).toBe(0);
      await expect(limiters.publicIp.consume("198.51.100.9")).resolves.toMatchObject({ remainingPoints: 1 });
      await pool.end();
    });
  });
}
