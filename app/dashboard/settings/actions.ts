"use server";

import { headers } from "next/headers";
import { z } from "zod";
import { db } from "@/lib/db/client";
import { memberAction } from "@/lib/http/dashboard-session";
import { clientAddress } from "@/lib/net/client-address";
import { brandingFormSchema } from "@/lib/organizations/brand-schemas";
import { cancelInvitation } from "@/lib/organizations/cancel-invitation";
import { inviteMember } from "@/lib/organizations/invite-member";
import {
  settlementWalletsFormSchema,
  subscriptionGraceFormSchema,
  updateOrganizationSchema,
} from "@/lib/organizations/organization-schemas";
import { removeMember } from "@/lib/organizations/remove-member";
import {
  cancelInvitationSchema,
  inviteMemberSchema,
  removeMemberSchema,
} from "@/lib/organizations/team-schemas";
import { updateOrganization } from "@/lib/organizations/update-organization";

// Settings decide who is paid and who gets in: owners change them, members read them.
const ownerOnly = { ownerOnly: true };

export const renameOrganizationAction = memberAction(
  updateOrganizationSchema,
  async (member, input) => {
    const organization = await updateOrganization(db(), member.organization.id, input);
    return { name: organization.name };
  },
  ownerOnly,
);

export const updateSettlementWalletsAction = memberAction(
  settlementWalletsFormSchema,
  async (member, input) => {
    const organization = await updateOrganization(db(), member.organization.id, input);
    return { wallets: organization.settlementWallets.length };
  },
  ownerOnly,
);

// The form always shows the URL, so an emptied one (dropped as unsent) clears the setting.
export const updateWebhookUrlAction = memberAction(
  z.preprocess(
    (form) => ({ webhookUrl: null, ...(form as Record<string, string>) }),
    updateOrganizationSchema,
  ),
  async (member, input) => {
    const organization = await updateOrganization(db(), member.organization.id, input);
    return { webhookUrl: organization.webhookUrl };
  },
  ownerOnly,
);

export const updateSubscriptionGraceAction = memberAction(
  subscriptionGraceFormSchema,
  async (member, input) => {
    const organization = await updateOrganization(db(), member.organization.id, input);
    return { subscriptionGraceDays: organization.subscriptionGraceDays };
  },
  ownerOnly,
);

export const updateBrandingAction = memberAction(
  brandingFormSchema,
  async (member, input) => {
    const organization = await updateOrganization(db(), member.organization.id, input);
    return { logo: organization.brandLogo !== null };
  },
  ownerOnly,
);

export const inviteMemberAction = memberAction(
  inviteMemberSchema,
  async (member, input) => {
    const result = await inviteMember(db(), member.organization.id, {
      ...input,
      invitedBy: member.user.email,
      clientAddress: clientAddress(await headers()),
    });
    return { kind: result.kind, email: input.email };
  },
  ownerOnly,
);

export const removeMemberAction = memberAction(
  removeMemberSchema,
  async (member, input) => {
    await removeMember(db(), member.organization.id, input.membershipId);
    return { membershipId: input.membershipId };
  },
  ownerOnly,
);

export const cancelInvitationAction = memberAction(
  cancelInvitationSchema,
  async (member, input) => {
    await cancelInvitation(db(), member.organization.id, input.invitationId);
    return { invitationId: input.invitationId };
  },
  ownerOnly,
);
