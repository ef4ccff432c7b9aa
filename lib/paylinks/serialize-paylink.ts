import { checkoutUrl, formatPrice } from "../checkout/serialize-checkout-session";
import type { Organization, Paylink } from "../generated/prisma/client";

/** Spec 2.6: a paylink as its owner sees it. `url` is where buyers pay it. */
export function serializePaylink(paylink: Paylink) {
  return {
    id: paylink.id,
    object: "paylink" as const,
    name: paylink.name,
    description: paylink.description,
    amount: formatPrice(paylink.amount, paylink.currency),
    currency: paylink.currency,
    enabled: paylink.enabled,
    url: checkoutUrl(paylink.id),
    createdAt: paylink.createdAt.toISOString(),
    updatedAt: paylink.updatedAt.toISOString(),
  };
}

/** What anyone holding the link may see. */
export function serializePublicPaylink(paylink: Paylink & { organization: Pick<Organization, "name"> }) {
  return {
    id: paylink.id,
    object: "paylink" as const,
    merchantName: paylink.organization.name,
    name: paylink.name,
    description: paylink.description,
    amount: formatPrice(paylink.amount, paylink.currency),
    currency: paylink.currency,
  };
}
