import type { Db, Tx } from "../db/client";
import { announceDeliveries } from "../jobs/announce-deliveries";

// Deliveries recorded in a transaction, by transaction, until it commits.
const created = new WeakMap<Tx, string[]>();

/** Called where deliveries are created, so the transaction running them announces them on commit. */
export function deliveriesCreated(tx: Tx, deliveryIds: string[]) {
  created.get(tx)?.push(...deliveryIds);
}

/**
 * Runs `work` in a transaction and, once it has committed, announces the webhook deliveries its
 * events created to the job engine, so their first attempt follows at once. Use it for every
 * transaction that records events; the periodic sweep would only find them later.
 */
export async function transactWithEvents<T>(database: Db, work: (tx: Tx) => Promise<T>): Promise<T> {
  const deliveryIds: string[] = [];
  const result = await database.$transaction((tx) => {
    created.set(tx, deliveryIds);
    return work(tx);
  });
  await announceDeliveries(deliveryIds);
  return result;
}
