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
  receiptSettingsFormSchema,
  refundSettingsFormSchema,
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
import { configureMonthlyReport, monthlyReportFormSchema } from "@/lib/reports/configure-monthly-report";
import { updateOrganizationAndWallets } from "@/lib/settlement/update-organization-and-wallets";

// Each form's action takes its own fields only: another setting sent along (the receipts' details,
// the monthly report) must go through its own action and row (recent sign-in).
export const renameOrganizationAction = memberAction(
  "organization.update",
  updateOrganizationSchema.pick({ name: true }),
  async (member, input) => {
    const organization = await updateOrganization(db(), member.organization.id, input);
    return { name: organization.name };
  },
);

export const updateSettlementWalletsAction = memberAction(
  "settlement.change",
  settlementWalletsFormSchema,
  async (member, input) => {
    const from = clientAddress(await headers());
    const organization = await updateOrganizationAndWallets(db(), member.organization.id, input, () => ({
      decision: "allow",
      proposedBy: { kind: "owner", name: member.user.email, id: member.user.id },
      clientAddress: from,
    }));
    return {
      wallets: organization.settlementWallets.length,
      pending: organization.settlementChanges.length,
    };
  },
);

// The form always shows the URL, so an emptied one (dropped as unsent) clears the setting.
export const updateWebhookUrlAction = memberAction(
  "webhooks.manage",
  z.preprocess(
    (form) => ({ webhookUrl: null, ...(form as Record<string, string>) }),
    updateOrganizationSchema.pick({ webhookUrl: true }),
  ),
  async (member, input) => {
    const organization = await updateOrganization(db(), member.organization.id, input);
    return { webhookUrl: organization.webhookUrl };
  },
);

export const updateSubscriptionGraceAction = memberAction(
  "organization.update",
  subscriptionGraceFormSchema,
  async (member, input) => {
    const organization = await updateOrganization(db(), member.organization.id, input);
    return { subscriptionGraceDays: organization.subscriptionGraceDays };
  },
);

export const updateRefundSettingsAction = memberAction(
  "refunds.configure",
  refundSettingsFormSchema,
  async (member, input) => {
    const organization = await updateOrganization(db(), member.organization.id, input);
    return { autoRefundOverpayments: organization.autoRefundOverpayments };
  },
);

export const updateMonthlyReportAction = memberAction(
  "reports.schedule",
  monthlyReportFormSchema,
  async (member, input) => configureMonthlyReport(db(), member.organization.id, input),
);

export const updateReceiptSettingsAction = memberAction(
  "receipts.configure",
  receiptSettingsFormSchema,
  async (member, input) => {
    const organization = await updateOrganization(db(), member.organization.id, input);
    return { receiptEmails: organization.receiptEmails };
  },
);

export const updateBrandingAction = memberAction(
  "organization.update",
  brandingFormSchema,
  async (member, input) => {
    const organization = await updateOrganization(db(), member.organization.id, input);
    return { logo: organization.brandLogo !== null };
  },
);

export const inviteMemberAction = memberAction("team.invite", inviteMemberSchema, async (member, input) => {
  const result = await inviteMember(db(), member.organization.id, {
    ...input,
    invitedBy: member.user.email,
    invitedByUserId: member.user.id,
    clientAddress: clientAddress(await headers()),
  });
  return { kind: result.kind, email: input.email };
});

export const removeMemberAction = memberAction("team.manage", removeMemberSchema, async (member, input) => {
  await removeMember(db(), member.organization.id, input.membershipId, {
    keepApiKeys: input.keepApiKeys === "on",
  });
  return { membershipId: input.membershipId };
});

export const cancelInvitationAction = memberAction(
  "team.manage",
  cancelInvitationSchema,
  async (member, input) => {
    await cancelInvitation(db(), member.organization.id, input.invitationId);
    return { invitationId: input.invitationId };
  },
);
