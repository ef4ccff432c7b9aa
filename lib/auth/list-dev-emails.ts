import type { Db } from "../db/client";

/** The newest emails of the development mailbox. */
export function listDevEmails(database: Db, limit = 20) {
  return database.devEmail.findMany({ orderBy: { createdAt: "desc" }, take: limit });
}
