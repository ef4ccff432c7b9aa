import { decimalString, type paylinkObject, recurringObject, x402Url } from "crypto-checkout-agent/shapes";
import { z } from "zod";
import { checkoutUrl, paylinkX402Url } from "../config";
import type { Organization, Paylink } from "../generated/prisma/client";
import { formatPrice } from "../money/decimal";
import { serializeRecurring } from "../subscriptions/serialize-recurring";

export const publicPaylinkObject = z
  .object({
    id: z.uuid(),
    object: z.literal("paylink"),
    merchantName: z.string(),
    name: z.string(),
    description: z.string().nullable(),
    amount: decimalString,
    currency: z.string(),
    recurring: recurringObject,
    x402Url: x402Url("paylink"),
  })
  .meta({ id: "PublicPaylink" });

/**
 * A paylink as its owner sees it (docs/api.md, "Paylinks"). `url` is where buyers pay it,
 * `x402Url` where agents do.
 */
export function serializePaylink(paylink: Paylink): z.output<typeof paylinkObject> {
  return {
    id: paylink.id,
    object: "paylink" as const,
    name: paylink.name,
    description: paylink.description,
    amount: formatPrice(paylink.amount, paylink.currency),
    currency: paylink.currency,
    enabled: paylink.enabled,
    recurring: serializeRecurring(paylink),
    url: checkoutUrl(paylink.id),
    x402Url: paylinkX402Url(paylink.id),
    createdAt: paylink.createdAt.toISOString(),
    updatedAt: paylink.updatedAt.toISOString(),
  };
}

/** What anyone holding the link may see. */
export function serializePublicPaylink(
  paylink: Paylink & { organization: Pick<Organization, "name"> },
): z.output<typeof publicPaylinkObject> {
  return {
    id: paylink.id,
    object: "paylink" as const,
    merchantName: paylink.organization.name,
    name: paylink.name,
    description: paylink.description,
    amount: formatPrice(paylink.amount, paylink.currency),
    currency: paylink.currency,
    recurring: serializeRecurring(paylink),
    x402Url: paylinkX402Url(paylink.id),
  };
}
