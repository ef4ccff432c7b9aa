import type { Db } from "../db/client";
import { notFound } from "../errors";
import { isUuid } from "../ids";

/** An enabled paylink as buyers see it; a disabled one does not exist for them. */
export async function getPublicPaylink(database: Db, id: string) {
  const paylink = isUuid(id)
    ? await database.paylink.findFirst({
        where: { id, enabled: true },
        include: { organization: { select: { name: true } } },
      })
    : null;
  if (!paylink) throw notFound("paylink");
  return paylink;
}
