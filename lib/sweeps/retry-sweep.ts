import { z } from "zod";
import type { Db } from "../db/client";
import { invalidRequest, notFound } from "../errors";
import { nextSweepStatus } from "./sweep-state";

export const retrySweepSchema = z.strictObject({ sweepId: z.string().min(1).max(64) });

/**
 * Puts a failed sweep back to PENDING as its next attempt; the sweeper signs that attempt's
 * transactions on its next pass.
 */
export async function retrySweep(
  database: Db,
  organizationId: string,
  input: z.output<typeof retrySweepSchema>,
) {
  const sweep = await database.sweep.findFirst({ where: { id: input.sweepId, organizationId } });
  if (!sweep) throw notFound("sweep", "sweepId");
  const next = nextSweepStatus(sweep.status, "retry");
  if (!next) throw invalidRequest("sweep_not_failed", "Only a failed sweep can be retried.", "sweepId");
  const moved = await database.sweep.updateMany({
    where: { id: sweep.id, organizationId, status: sweep.status },
    // A new attempt: the earlier attempt's transactions stay on record but are no longer followed.
    data: { status: next, failureReason: null, attempt: { increment: 1 } },
  });
  if (moved.count !== 1)
    throw invalidRequest("sweep_not_failed", "Only a failed sweep can be retried.", "sweepId");
  return { id: sweep.id, status: next };
}
