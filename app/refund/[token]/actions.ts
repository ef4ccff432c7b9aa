"use server";

import { revalidatePath } from "next/cache";
import { db } from "@/lib/db/client";
import { buyerAction } from "@/lib/http/buyer-action";
import { claimRefund, claimRefundSchema } from "@/lib/refunds/claim-refund";
import { sendClaimCode, sendClaimCodeSchema } from "@/lib/refunds/send-claim-code";

// The buyer's address for a claim link; the page then shows the refund's status instead of the form.
export const claimRefundAction = buyerAction(claimRefundSchema, async (input) => {
  const claim = await claimRefund(db(), input);
  revalidatePath(`/refund/${input.token}`);
  return claim;
});

// A one-time code emailed to the buyer, which the claim needs when the buyer's email is known.
export const sendClaimCodeAction = buyerAction(sendClaimCodeSchema, async (input) => {
  const { sentTo } = await sendClaimCode(db(), input.token);
  return { sentTo };
});
