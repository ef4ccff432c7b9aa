import { config } from "../config";
import { log } from "../log";
import { signalDeliveriesDue } from "./deliveries-due";

/**
 * Tells the job engine, after commit, that deliveries are due now. The in-process engine wakes
 * its worker (other instances hear the NOTIFY sent on commit); with Inngest each delivery gets a
 * durable run at once. Best effort either way: the periodic sweep finds anything due, so a lost
 * announcement only delays an attempt.
 */
export async function announceDeliveries(deliveryIds: string[]): Promise<void> {
  if (deliveryIds.length === 0) return;
  if (config().jobEngine !== "inngest") return signalDeliveriesDue();
  const { deliveryDueEvent, inngest } = await import("./inngest-client");
  await inngest
    // The delivery id as the event id: Inngest starts one run per id even if a send is repeated.
    .send(deliveryIds.map((deliveryId) => ({ id: deliveryId, name: deliveryDueEvent, data: { deliveryId } })))
    .catch((error: unknown) => log.warn({ err: error }, "could not announce deliveries to Inngest"));
}
