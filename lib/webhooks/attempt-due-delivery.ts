import type { Db } from "../db/client";
import { attemptDelivery, loadDeliveries } from "./attempt-delivery";
import { claimDueDeliveries } from "./claim-due-deliveries";

/**
 * Claims one delivery if it is due and nobody holds it, and attempts it. Returns its progress, or
 * null when there was nothing to do (not due yet, already delivered, or another worker has it).
 * The Inngest engine drives single deliveries with this; claims keep it from racing the cron.
 */
export async function attemptDueDelivery(database: Db, deliveryId: string, now = new Date()) {
  const claimed = await claimDueDeliveries(database, now, { deliveryId });
  if (claimed.length === 0) return null;
  const [delivery] = await loadDeliveries(database, [deliveryId]);
  return attemptDelivery(database, delivery, now);
}
