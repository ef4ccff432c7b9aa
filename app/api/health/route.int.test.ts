import { describe, expect, it } from "vitest";
import { db } from "@/lib/db/client";
import { callRoute } from "@/scripts/test-support/call-route";
import { GET } from "./route";

describe("GET /api/health", () => {
  it("is ok when the database answers and every migration is applied", async () => {
    const response = await callRoute(GET, "/api/health");
    expect(response.status).toBe(200);
    expect(response.json).toEqual({ status: "ok", database: "ok", migrations: "current" });
    expect(response.headers.get("x-request-id")).toMatch(/^req_/);
  });

  it("is 503 and names the missing migration when the database is behind", async () => {
    const [latest] = await db().$queryRaw<{ migration_name: string }[]>`
      SELECT migration_name FROM _prisma_migrations ORDER BY migration_name DESC LIMIT 1`;
    await db()
      .$executeRaw`UPDATE _prisma_migrations SET rolled_back_at = now() WHERE migration_name = ${latest.migration_name}`;
    try {
      const response = await callRoute(GET, "/api/health");
      expect(response.status).toBe(503);
      expect(response.json).toEqual({
        status: "degraded",
        database: "ok",
        migrations: "pending",
        pendingMigrations: [latest.migration_name],
      });
    } finally {
      await db()
        .$executeRaw`UPDATE _prisma_migrations SET rolled_back_at = NULL WHERE migration_name = ${latest.migration_name}`;
    }
  });
});
