"use server";

import { z } from "zod";
import { db } from "@/lib/db/client";
import { memberAction } from "@/lib/http/dashboard-session";
import { cancelSubscription } from "@/lib/subscriptions/cancel-subscription";
import { cancelSubscriptionSchema } from "@/lib/subscriptions/subscription-schemas";

// Money: only owners end a subscription. The form sends strings; atPeriodEnd is "true" or "false".
export const cancelSubscriptionAction = memberAction(
  "subscriptions.cancel",
  z.preprocess(
    (form) => {
      const { atPeriodEnd, ...rest } = form as Record<string, string>;
      return { ...rest, atPeriodEnd: atPeriodEnd === "true" };
    },
    cancelSubscriptionSchema.extend({ id: z.string().max(64) }),
  ),
  async (member, input) => {
    const subscription = await cancelSubscription(db(), member.organization.id, input);
    return { id: subscription.id, status: subscription.status };
  },
);
