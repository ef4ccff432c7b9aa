import type { Db, Tx } from "../db/client";
import { announceDeliveries } from "../jobs/announce-deliveries";
import { sendOutboundEmailsNow } from "../outbox/deliver-outbound-emails";
import { collectOutboundEmails } from "../outbox/record-outbound-emails";

// Deliveries recorded in a transaction, by transaction, until it commits.
const created = new WeakMap<Tx, string[]>();

/** Called where deliveries are created, so the transaction running them announces them on commit. */
export function deliveriesCreated(tx: Tx, deliveryIds: string[]) {
  created.get(tx)?.push(...deliveryIds);
}

/**
 * Runs `work` in a transaction and, once it has committed, announces the webhook deliveries its
 * events created to the job engine, so their first attempt follows at once, and starts sending
 * the outbox emails it wrote (buyers' receipts) without waiting for them. Use it for every
 * transaction that records events; the periodic tasks would only find them later.
 */
export async function transactWithEvents<T>(database: Db, work: (tx: Tx) => Promise<T>): Promise<T> {
  const deliveryIds: string[] = [];
  const emailIds: string[] = [];
  const result = await database.$transaction((tx) => {
    created.set(tx, deliveryIds);
    collectOutboundEmails(tx, emailIds);
    return work(tx);
  });
  await announceDeliveries(deliveryIds);
  // Not awaited: a slow mail server must not hold the chain watcher; sendOutboundEmailsNow logs
  // its own failures, and the deliver-outbound-emails task sends what this does not.
  if (emailIds.length > 0) void sendOutboundEmailsNow(database, emailIds, new Date());
  return result;
}
