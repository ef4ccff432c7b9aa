import type { Db } from "../db/client";
import { notFound } from "../errors";
import { hasIdPrefix } from "../ids";

/** A stored logo by its id (public: the hosted page shows it to anyone with the session link). */
export async function getOrganizationLogo(database: Db, id: string) {
  const logo = hasIdPrefix("organizationLogo", id)
    ? await database.organizationLogo.findUnique({
        where: { id },
        select: { contentType: true, bytes: true },
      })
    : null;
  if (!logo) throw notFound("logo");
  return logo;
}
