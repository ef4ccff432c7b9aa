import type { Db } from "../db/client";
import { notFound } from "../errors";

/** Withdraws a pending invitation of the organization. */
export async function cancelInvitation(database: Db, organizationId: string, invitationId: string) {
  const { count } = await database.invitation.deleteMany({ where: { id: invitationId, organizationId } });
  if (count === 0) throw notFound("invitation", "invitationId");
}
