import { config } from "../config";
import type { Db } from "../db/client";

/**
 * The newest emails of the development mailbox, or null where it must not be shown: with real
 * email configured, or to a request that did not come straight from this machine (the emails hold
 * sign-in links): `directLocal` is our server's stamp (lib/net/client-address.ts), false for a
 * client elsewhere and for one relayed by a proxy on this machine.
 */
export async function listDevEmails(database: Db, reader: { directLocal: boolean }, limit = 20) {
  if (!config().email.devMailbox || !reader.directLocal) return null;
  return database.devEmail.findMany({ orderBy: { createdAt: "desc" }, take: limit });
}
