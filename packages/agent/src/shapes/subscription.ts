import { z } from "zod";
import { decimalString, isoTimestamp, metadataObject } from "./common";
import { invoiceStatuses } from "./invoice";
import { recurringIntervals } from "./recurring";

export const subscriptionStatuses = ["ACTIVE", "PAST_DUE", "CANCELLED"] as const;

export const subscriptionObject = z
  .object({
    id: z.string().meta({ example: "sub_4fQh0r7Xq1s9bT2mN8kLp3Zy" }),
    object: z.literal("subscription"),
    status: z
      .enum(subscriptionStatuses)
      .meta({ description: "PAST_DUE: a renewal was missed and is in its grace period" }),
    paylinkId: z.string().nullable(),
    amount: decimalString,
    currency: z.string(),
    description: z.string().nullable(),
    interval: z.enum(recurringIntervals),
    intervalCount: z.number().int(),
    network: z.string(),
    token: z.string(),
    customer: z.object({
      email: z.string().nullable(),
      name: z.string().nullable(),
      clientReferenceId: z.string().nullable(),
    }),
    merchantOrderId: z.string().nullable(),
    metadata: metadataObject,
    anchor: isoTimestamp,
    currentPeriodStart: isoTimestamp,
    currentPeriodEnd: isoTimestamp,
    cancelAtPeriodEnd: z.boolean(),
    cancellationReason: z.enum(["unpaid", "requested"]).nullable(),
    cancelledAt: isoTimestamp.nullable(),
    createdAt: isoTimestamp,
  })
  .meta({ id: "Subscription" });

export const subscriptionInvoiceObject = z
  .object({
    id: z.string(),
    object: z.literal("invoice"),
    status: z.enum(invoiceStatuses),
    periodIndex: z.number().int(),
    periodStart: isoTimestamp,
    periodEnd: isoTimestamp,
    amountDue: decimalString,
    amountPaid: decimalString,
    token: z.string(),
    deadline: isoTimestamp,
    checkoutSessionId: z.string(),
    url: z.string().meta({ description: "Hosted page where the customer pays this invoice" }),
    createdAt: isoTimestamp,
  })
  .meta({ id: "SubscriptionInvoice" });

export const subscriptionDetailObject = subscriptionObject
  .extend({ invoices: z.array(subscriptionInvoiceObject).meta({ description: "Newest period first" }) })
  .meta({ id: "SubscriptionDetail" });
