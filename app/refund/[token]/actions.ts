"use server";

import { revalidatePath } from "next/cache";
import { db } from "@/lib/db/client";
import { buyerAction } from "@/lib/http/buyer-action";
import { claimRefund, claimRefundSchema } from "@/lib/refunds/claim-refund";

// The buyer's address for a claim link; the page then shows the refund's status instead of the form.
export const claimRefundAction = buyerAction(claimRefundSchema, async (input) => {
  const claim = await claimRefund(db(), input);
  revalidatePath(`/refund/${input.token}`);
  return claim;
});
