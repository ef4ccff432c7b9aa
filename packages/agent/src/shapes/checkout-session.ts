import { z } from "zod";
import { decimalString, isoTimestamp, metadataObject, x402Url } from "./common";
import { paymentRequestObject, paymentSummaryObject } from "./invoice";
import { recurringObject } from "./recurring";

export const sessionStatuses = ["OPEN", "PROCESSING", "COMPLETED", "EXPIRED"] as const;

export const checkoutSessionObject = z
  .object({
    id: z.string().meta({ example: "ycs_4fQh0r7Xq1s9bT2mN8kLp3Zy" }),
    object: z.literal("checkout_session"),
    status: z.enum(sessionStatuses),
    paylinkId: z.string().nullable(),
    amount: decimalString,
    currency: z.string(),
    merchantOrderId: z.string().nullable(),
    description: z.string().nullable(),
    clientReferenceId: z.string().nullable(),
    successUrl: z.string().nullable(),
    cancelUrl: z.string().nullable(),
    recurring: recurringObject,
    expiresAt: isoTimestamp,
    createdAt: isoTimestamp,
    url: z.string().meta({ description: "Hosted checkout page to send the buyer to" }),
    x402Url: x402Url("checkout session"),
  })
  .meta({ id: "CheckoutSession" });

/** A session just created: with its payment request when the request named a network and token. */
export const createdCheckoutSessionObject = checkoutSessionObject
  .extend({
    paymentRequest: paymentRequestObject.nullable().meta({
      description:
        "The payment, started on the network and token the request named (the buyer pays it without choosing on the hosted page); null when it named none",
    }),
  })
  .meta({ id: "CreatedCheckoutSession" });

export const checkoutSessionDetailObject = checkoutSessionObject
  .extend({
    customerEmail: z.string().nullable(),
    customerName: z.string().nullable(),
    metadata: metadataObject,
    payment: paymentSummaryObject
      .nullable()
      .meta({ description: "Present once the buyer has started paying" }),
  })
  .meta({ id: "CheckoutSessionDetail" });
