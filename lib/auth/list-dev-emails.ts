import { config } from "../config";
import type { Db } from "../db/client";
import { isLoopbackAddress } from "../net/client-address";

/**
 * The newest emails of the development mailbox, or null where it must not be shown: with real
 * email configured, or to a client that is not on this machine (the emails hold sign-in links).
 */
export async function listDevEmails(database: Db, reader: { clientAddress: string }, limit = 20) {
  if (!config().email.devMailbox || !isLoopbackAddress(reader.clientAddress)) return null;
  return database.devEmail.findMany({ orderBy: { createdAt: "desc" }, take: limit });
}
