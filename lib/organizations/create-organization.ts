import { createApiKey } from "../api-keys/create-api-key";
import type { Db } from "../db/client";
import { newId } from "../ids";

/** Creates an organization, its owner (reusing a user with that email) and a first API key. */
export async function createOrganization(database: Db, input: { name: string; ownerEmail: string }) {
  const email = input.ownerEmail.trim().toLowerCase();
  return database.$transaction(async (tx) => {
    const organization = await tx.organization.create({
      data: { id: newId("organization"), name: input.name.trim() },
    });
    const user = await tx.user.upsert({
      where: { email },
      create: { id: newId("user"), email },
      update: {},
    });
    await tx.membership.create({
      data: { id: newId("membership"), organizationId: organization.id, userId: user.id, role: "OWNER" },
    });
    const { secret } = await createApiKey(tx, { organizationId: organization.id, createdByUserId: user.id });
    return { organization, owner: user, apiKey: secret };
  });
}
