import { config } from "../config";
import { log } from "../log";

/**
 * Tells the job engine that deliveries are due now. The in-process engine polls and needs no
 * word; with Inngest each delivery gets a durable run at once. Best effort either way: the
 * periodic sweep finds anything due, so a lost announcement only delays an attempt.
 */
export async function announceDeliveries(deliveryIds: string[]): Promise<void> {
  if (config().jobEngine !== "inngest" || deliveryIds.length === 0) return;
  const { deliveryDueEvent, inngest } = await import("../../inngest/client");
  await inngest
    .send(deliveryIds.map((deliveryId) => ({ name: deliveryDueEvent, data: { deliveryId } })))
    .catch((error: unknown) => log.warn({ err: error }, "could not announce deliveries to Inngest"));
}
