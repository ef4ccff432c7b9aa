import type { Db } from "../db/client";
import { instanceId } from "./periodic-task";

export type JobLeaseState = { task: string; held: boolean; heldHere: boolean };

/** Which periodic tasks' leases are held now, and whether by this process. */
export async function listJobLeases(database: Db, now = new Date()): Promise<JobLeaseState[]> {
  const leases = await database.jobLease.findMany({ orderBy: { name: "asc" } });
  return leases.map((lease) => ({
    task: lease.name,
    held: lease.expiresAt > now,
    heldHere: lease.expiresAt > now && lease.owner === instanceId,
  }));
}
