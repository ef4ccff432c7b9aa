import type { Db } from "../db/client";
import { notFound } from "../errors";

/** Disconnects an app from the dashboard: its tokens stop working on their next request. */
export async function revokeGrant(database: Db, organizationId: string, grantId: string): Promise<void> {
  const { count } = await database.oAuthGrant.updateMany({
    where: { id: grantId, organizationId, revokedAt: null },
    data: { revokedAt: new Date() },
  });
  if (count === 0) throw notFound("connected app", "grantId");
}
