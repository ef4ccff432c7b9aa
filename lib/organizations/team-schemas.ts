import { z } from "zod";
import { recipientEmailField } from "../validation/fields";

export const memberRoleField = z.enum(["OWNER", "MEMBER"], { error: "must be OWNER or MEMBER" });

/** Emails are compared lower-case everywhere (sign-in parses them with the same field). */
export const inviteMemberSchema = z.strictObject({
  email: recipientEmailField,
  role: memberRoleField.default("MEMBER"),
});

export const removeMemberSchema = z.strictObject({ membershipId: z.string().max(64) });

export const cancelInvitationSchema = z.strictObject({ invitationId: z.string().max(64) });

export type InviteMemberInput = z.output<typeof inviteMemberSchema>;
