import type { Db } from "../db/client";
import type { Paging } from "../validation/fields";

/** A page of the organization's paylinks, newest first, with the total count. */
export async function listPaylinks(database: Db, organizationId: string, paging: Paging) {
  const [total, paylinks] = await Promise.all([
    database.paylink.count({ where: { organizationId } }),
    database.paylink.findMany({
      where: { organizationId },
      orderBy: [{ createdAt: "desc" }, { id: "desc" }],
      skip: (paging.page - 1) * paging.rows,
      take: paging.rows,
    }),
  ]);
  return { paylinks, total };
}
