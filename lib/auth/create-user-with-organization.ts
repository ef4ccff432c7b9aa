import type { Db } from "../db/client";
import { newId } from "../ids";

/** "alice@shop.example" → "shop.example": a starting name the owner can change in settings. */
function organizationNameFor(email: string): string {
  return email.split("@")[1] ?? email;
}

/**
 * A new user from a first sign-in. Invitations to that email become memberships; a user nobody
 * invited gets an organization of their own, which they own.
 */
export async function createUserWithOrganization(
  database: Db,
  input: { email: string; name?: string | null; emailVerified?: Date | null },
) {
  const email = input.email.trim().toLowerCase();
  return database.$transaction(async (tx) => {
    const user = await tx.user.create({
      data: {
        id: newId("user"),
        email,
        name: input.name ?? null,
        emailVerified: input.emailVerified ?? null,
      },
    });
    const invitations = await tx.invitation.findMany({ where: { email } });
    if (invitations.length > 0) {
      await tx.membership.createMany({
        data: invitations.map((invitation) => ({
          id: newId("membership"),
          organizationId: invitation.organizationId,
          userId: user.id,
          role: invitation.role,
        })),
      });
      await tx.invitation.deleteMany({ where: { email } });
    } else {
      const organization = await tx.organization.create({
        data: { id: newId("organization"), name: organizationNameFor(email) },
      });
      await tx.membership.create({
        data: { id: newId("membership"), organizationId: organization.id, userId: user.id, role: "OWNER" },
      });
    }
    return user;
  });
}
