import type { Db } from "../db/client";
import { notFound } from "../errors";
import { isUuid } from "../ids";

/** The organization's paylink; a malformed id is as unknown as another organization's. */
export async function getPaylink(database: Db, organizationId: string, id: string) {
  const paylink = isUuid(id) ? await database.paylink.findFirst({ where: { id, organizationId } }) : null;
  if (!paylink) throw notFound("paylink");
  return paylink;
}
