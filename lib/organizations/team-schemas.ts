import { z } from "zod";
import { emailField } from "../http/fields";

export const memberRoleField = z.enum(["OWNER", "MEMBER"], { error: "must be OWNER or MEMBER" });

/** Emails are compared lower-case everywhere (sign-in normalizes them the same way). */
export const inviteMemberSchema = z.strictObject({
  email: z.string({ error: "must be an email address" }).trim().toLowerCase().pipe(emailField),
  role: memberRoleField.default("MEMBER"),
});

export const removeMemberSchema = z.strictObject({ membershipId: z.string().max(64) });

export const cancelInvitationSchema = z.strictObject({ invitationId: z.string().max(64) });

export type InviteMemberInput = z.output<typeof inviteMemberSchema>;
