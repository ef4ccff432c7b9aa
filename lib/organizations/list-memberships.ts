import type { Db } from "../db/client";

/** The organizations a user belongs to, oldest membership first, with the role in each. */
export function listMemberships(database: Db, userId: string) {
  return database.membership.findMany({
    where: { userId },
    orderBy: { createdAt: "asc" },
    select: { role: true, organization: { select: { id: true, name: true } } },
  });
}
