import type { AddressRules } from "../chains/chain-family";
import type { Refund } from "../generated/prisma/client";
import { Money } from "../money/decimal";
import { countedRefundStatuses } from "./refund-state";

export type RefundRefusal = { reason: string; message: string };

/** What the signer reads about the refund's invoice to judge it. */
export type RefundInvoiceFacts = {
  /** The invoice's payments: sender, amount and status (REORGED ones do not count). */
  payments: { fromAddress: string | null; amount: { toString(): string }; status: string }[];
  /** The invoice's other refunds. */
  refunds: { id: string; amount: { toString(): string }; status: string }[];
};

type RefundFields = Pick<
  Refund,
  | "id"
  | "amount"
  | "destination"
  | "toAddress"
  | "claimedAt"
  | "claimEmail"
  | "requestedByKind"
  | "decidedByUserId"
>;

/** Kinds of requester that may send money to an address they name without an owner's decision. */
const ownerKinds = ["user"];

/**
 * Whether a claimed refund may be paid to the address typed on its claim page without an owner's
 * decision: an owner asked for it or decided it, or the claim carried the code emailed to the
 * buyer (a claim needs that code whenever claimEmail is set, lib/refunds/claim-refund.ts). A
 * credential's answer carries the claim link, so a stolen credential could otherwise claim it.
 */
export function mayClaimWithoutOwner(
  refund: Pick<Refund, "claimEmail" | "requestedByKind" | "decidedByUserId">,
): boolean {
  return (
    ownerKinds.includes(refund.requestedByKind) ||
    refund.decidedByUserId !== null ||
    refund.claimEmail !== null
  );
}

/**
 * The signer's own check, made right before it signs a refund, whatever the web tier decided: the
 * destination must be where this kind of refund may go, and the amount within what the invoice's
 * confirmed payments leave after its other refunds (failed ones aside). Pure: returns the refusal,
 * or null when the refund may be signed.
 */
export function checkRefundDestination(
  refund: RefundFields,
  invoice: RefundInvoiceFacts,
  addresses: AddressRules,
): RefundRefusal | null {
  const to = refund.toAddress;
  const same = (a: string, b: string) => addresses.key(a) === addresses.key(b);
  if (!to || "problem" in addresses.parse(to) || addresses.isBurn(to))
    return { reason: "no_destination", message: `Refused: ${to ?? "no address"} is not an address to pay.` };
  if (refund.destination === "PAYER") {
    const payers = invoice.payments
      .filter((payment) => payment.status !== "REORGED" && payment.fromAddress)
      .map((payment) => payment.fromAddress as string);
    if (!payers.some((payer) => same(payer, to)))
      return {
        reason: "not_the_payer",
        message: `Refused to pay ${to}: no counted payment of this invoice came from it.`,
      };
  }
  if (refund.destination === "CLAIM" && !refund.claimedAt)
    return { reason: "not_claimed", message: `Refused to pay ${to}: the buyer has not claimed this refund.` };
  if (refund.destination === "CLAIM" && !mayClaimWithoutOwner(refund))
    return {
      reason: "claim_not_decided_by_owner",
      message: `Refused to pay ${to}: a credential's claim link claimed without the buyer's emailed code needs an owner's decision.`,
    };
  if (
    refund.destination === "ADDRESS" &&
    !ownerKinds.includes(refund.requestedByKind) &&
    !refund.decidedByUserId
  )
    return {
      reason: "address_not_decided_by_owner",
      message: `Refused to pay ${to}: an explicit address needs an owner's request or decision.`,
    };
  const confirmed = invoice.payments
    .filter((payment) => payment.status === "CONFIRMED")
    .reduce((total, payment) => total.plus(payment.amount.toString()), new Money(0));
  const others = invoice.refunds
    .filter(
      (other) =>
        other.id !== refund.id && (countedRefundStatuses as readonly string[]).includes(other.status),
    )
    .reduce((total, other) => total.plus(other.amount.toString()), new Money(0));
  const left = Money.max(confirmed.minus(others), 0);
  if (new Money(refund.amount.toString()).gt(left))
    return {
      reason: "exceeds_payment",
      message: `Refused: ${refund.amount} is more than the ${left.toFixed()} the invoice's confirmed payments leave after its other refunds.`,
    };
  if (!new Money(refund.amount.toString()).gt(0))
    return { reason: "not_positive", message: "Refused: the amount is not positive." };
  return null;
}
