import { assertEmailSendAllowed } from "../auth/limit-email-sends";
import { sendEmail } from "../auth/send-email";
import { config } from "../config";
import type { Db } from "../db/client";
import { invalidRequest } from "../errors";
import { newId } from "../ids";
import type { InviteMemberInput } from "./team-schemas";

/**
 * Adds someone to the organization by email. A user who already has an account becomes a member
 * at once; anyone else gets an invitation (turned into a membership at their first sign-in) and
 * an email telling them where to sign in. Inviting the same email again updates the role (and who
 * sent it: removing that owner withdraws it) and sends the email again. Counts against the email limits of the inviting client, of the invitee's
 * address and of the organization before anything changes.
 */
export async function inviteMember(
  database: Db,
  organizationId: string,
  input: InviteMemberInput & { invitedBy: string; invitedByUserId: string; clientAddress: string },
) {
  await assertEmailSendAllowed({ clientAddress: input.clientAddress, email: input.email, organizationId });
  const result = await database.$transaction(async (tx) => {
    const organization = await tx.organization.findUniqueOrThrow({ where: { id: organizationId } });
    const user = await tx.user.findUnique({ where: { email: input.email } });
    if (user) {
      const existing = await tx.membership.findUnique({
        where: { organizationId_userId: { organizationId, userId: user.id } },
      });
      if (existing) {
        throw invalidRequest(
          "already_member",
          `${input.email} is already a member of this organization.`,
          "email",
        );
      }
      const membership = await tx.membership.create({
        data: { id: newId("membership"), organizationId, userId: user.id, role: input.role },
      });
      return { kind: "member" as const, organization, membership, invitation: null };
    }
    const invitation = await tx.invitation.upsert({
      where: { organizationId_email: { organizationId, email: input.email } },
      create: {
        id: newId("invitation"),
        organizationId,
        email: input.email,
        role: input.role,
        invitedByUserId: input.invitedByUserId,
      },
      update: { role: input.role, invitedByUserId: input.invitedByUserId },
    });
    return { kind: "invitation" as const, organization, membership: null, invitation };
  });

  if (result.invitation) {
    const { serviceName, baseUrl } = config();
    await sendEmail(database, {
      to: input.email,
      subject: `${input.invitedBy} invited you to ${result.organization.name} on ${serviceName}`,
      text: `${input.invitedBy} invited you to join ${result.organization.name} on ${serviceName} as ${
        input.role === "OWNER" ? "an owner" : "a member"
      }.\n\nSign in with this email address (${input.email}) to accept:\n\n${baseUrl}/login\n\nIf you did not expect this invitation, ignore this email.\n`,
    });
  }
  return result;
}
