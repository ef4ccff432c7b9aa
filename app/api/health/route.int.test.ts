import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/db/client";
import { startPeriodicTask } from "@/lib/jobs/periodic-task";
import { sendTestEvent } from "@/lib/webhooks/send-test-event";
import { callRoute } from "@/scripts/test-support/call-route";
import { createTestReceiverEndpoint } from "@/scripts/test-support/fixtures";
import { GET } from "./route";

const token = "health-details-token-0123456789";
const auth = { authorization: `Bearer ${token}` };
const allOk = { database: "ok", migrations: "ok", watchers: "ok", deliveries: "ok", jobs: "ok" };
let stopEngine: (() => void) | undefined;

beforeAll(() => {
  process.env.SERVICE_METRICS_TOKEN = token;
});
afterAll(() => stopEngine?.());

/** The in-process engine running here, as instrumentation.ts starts it (one idle task). */
function startEngine() {
  stopEngine = startPeriodicTask(db(), {
    name: "health-test-idle",
    intervalMs: 60_000,
    cron: "* * * * *",
    run: async () => {},
  });
}

describe("GET /api/health", () => {
  it("is 503 naming the job engine while the in-process engine does not run here", async () => {
    const response = await callRoute(GET, "/api/health");
    expect(response.status).toBe(503);
    expect(response.json).toEqual({ status: "failing", checks: { ...allOk, jobs: "failing" } });
  });

  it("is ok when every check passes, with details only for the metrics token", async () => {
    startEngine();
    const response = await callRoute(GET, "/api/health");
    expect(response.status).toBe(200);
    expect(response.json).toEqual({ status: "ok", checks: allOk });
    expect(response.headers.get("x-request-id")).toMatch(/^req_/);
    const detailed = await callRoute(GET, "/api/health", { headers: auth });
    expect(detailed.json.details).toMatchObject({
      pendingMigrations: [],
      watchers: [],
      jobs: { engine: "in-process", tasks: ["health-test-idle"], stalledTasks: [] },
    });
    const wrong = await callRoute(GET, "/api/health", {
      headers: { authorization: "Bearer wrong-token-xxxxxxxx" },
    });
    expect(wrong.json.details).toBeUndefined();
  });

  it("is 503 and names the missing migration when the database is behind", async () => {
    const [latest] = await db().$queryRaw<{ migration_name: string }[]>`
      SELECT migration_name FROM _prisma_migrations ORDER BY migration_name DESC LIMIT 1`;
    await db()
      .$executeRaw`UPDATE _prisma_migrations SET rolled_back_at = now() WHERE migration_name = ${latest.migration_name}`;
    try {
      const response = await callRoute(GET, "/api/health", { headers: auth });
      expect(response.status).toBe(503);
      expect(response.json.checks).toEqual({ ...allOk, migrations: "failing" });
      expect(response.json.details.pendingMigrations).toEqual([latest.migration_name]);
    } finally {
      await db()
        .$executeRaw`UPDATE _prisma_migrations SET rolled_back_at = NULL WHERE migration_name = ${latest.migration_name}`;
    }
  });

  it("is 503 once a due delivery has waited past the threshold (300 s by default)", async () => {
    const { receiver, organization, endpoint } = await createTestReceiverEndpoint();
    try {
      const event = await sendTestEvent(db(), organization.id, endpoint.id);
      const due = await callRoute(GET, "/api/health", { headers: auth });
      expect(due.status).toBe(200);
      expect(due.json.details.deliveries.due).toBe(1);
      await db().webhookDelivery.updateMany({
        where: { eventId: event.id },
        data: { nextAttemptAt: new Date(Date.now() - 301_000) },
      });
      const late = await callRoute(GET, "/api/health", { headers: auth });
      expect(late.status).toBe(503);
      expect(late.json.checks).toEqual({ ...allOk, deliveries: "failing" });
      expect(late.json.details.deliveries.oldestDueSeconds).toBeGreaterThan(300);
    } finally {
      await db().webhookDelivery.deleteMany({ where: { organizationId: organization.id } });
      await receiver.close();
    }
  });
});
