import { describe, expect, it } from "vitest";
import { db } from "../db/client";
import { purgeAgentSetups } from "./purge-agent-setups";
import { startAgentSetup } from "./start-agent-setup";

const hour = 60 * 60 * 1000;

describe("purgeAgentSetups", () => {
  it("forgets setups that expired over a day ago and keeps the rest", async () => {
    const now = new Date();
    const ages = { live: -0.1, expiredAnHourAgo: 1, expiredYesterday: 25, expiredLastWeek: 24 * 7 };
    const ids: Record<string, string> = {};
    for (const [name, hoursAgo] of Object.entries(ages)) {
      const setup = await startAgentSetup(db(), {
        agentName: name,
        access: "read",
        clientAddress: "192.0.2.1",
      });
      const row = await db().agentSetup.findFirstOrThrow({ where: { agentName: name } });
      await db().agentSetup.update({
        where: { id: row.id },
        data: { expiresAt: new Date(now.getTime() - hoursAgo * hour) },
      });
      ids[name] = row.id;
      expect(setup.agentName).toBe(name);
    }

    expect(await purgeAgentSetups(db(), now)).toBe(2);
    const left = await db().agentSetup.findMany({ where: { id: { in: Object.values(ids) } } });
    expect(left.map((row) => row.agentName).sort()).toEqual(["expiredAnHourAgo", "live"]);
    expect(await purgeAgentSetups(db(), now)).toBe(0);
  });
});
