"use server";

import { authorize } from "@/lib/authority/authorize";
import { db } from "@/lib/db/client";
import { actorOfMember, memberAction } from "@/lib/http/dashboard-session";
import { cancelRefund } from "@/lib/refunds/cancel-refund";
import { createRefund } from "@/lib/refunds/create-refund";
import { decideRefund } from "@/lib/refunds/decide-refund";
import { refundIdSchema } from "@/lib/refunds/refund-id-schema";
import { createRefundSchema } from "@/lib/refunds/refund-schemas";
import { resendClaimLink } from "@/lib/refunds/resend-claim-link";
import { type RefundObject, serializeRefund } from "@/lib/refunds/serialize-refund";

// Refunds send money to addresses the merchant does not own: owners only (lib/authority/operations.ts).
export const createRefundAction = memberAction(
  "refunds.create",
  createRefundSchema,
  async (member, input) => {
    const { body } = await createRefund(db(), {
      organizationId: member.organization.id,
      request: input,
      requestedBy: {
        kind: "user",
        name: member.user.email,
        id: member.user.id,
        decision: authorize(actorOfMember(member), "refunds.create"),
      },
      idempotency: null,
      reader: actorOfMember(member),
    });
    // Without an idempotency key the answer is always the new refund's object.
    return body as RefundObject;
  },
);

// An agent's proposal: an owner who signed in within the last 10 minutes decides.
export const confirmRefundAction = memberAction("refunds.decide", refundIdSchema, async (member, { id }) =>
  serializeRefund(
    await decideRefund(db(), member.organization.id, { id, userId: member.user.id, decision: "confirm" }),
    actorOfMember(member),
  ),
);

export const rejectRefundAction = memberAction("refunds.decide", refundIdSchema, async (member, { id }) =>
  serializeRefund(
    await decideRefund(db(), member.organization.id, { id, userId: member.user.id, decision: "reject" }),
    actorOfMember(member),
  ),
);

export const cancelRefundAction = memberAction("refunds.cancel", refundIdSchema, async (member, { id }) =>
  serializeRefund(await cancelRefund(db(), member.organization.id, id), actorOfMember(member)),
);

export const resendClaimLinkAction = memberAction(
  "refunds.resendClaimLink",
  refundIdSchema,
  async (member, { id }) =>
    serializeRefund(await resendClaimLink(db(), member.organization.id, id), actorOfMember(member)),
);
