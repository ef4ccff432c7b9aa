import { z } from "zod";
import { recipientEmailField } from "../validation/fields";

export const memberRoleField = z.enum(["OWNER", "MEMBER"], { error: "must be OWNER or MEMBER" });

/** Emails are compared lower-case everywhere (sign-in parses them with the same field). */
export const inviteMemberSchema = z.strictObject({
  email: recipientEmailField,
  role: memberRoleField.default("MEMBER"),
});

/** `keepApiKeys`: the confirmation's checkbox to keep the API keys the removed owner created working. */
export const removeMemberSchema = z.strictObject({
  membershipId: z.string().max(64),
  keepApiKeys: z.literal("on").optional(),
});

export const cancelInvitationSchema = z.strictObject({ invitationId: z.string().max(64) });

export type InviteMemberInput = z.output<typeof inviteMemberSchema>;
