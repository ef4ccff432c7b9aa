// The public objects (crypto-checkout-agent/shapes) are published on their own and import only
// zod, so they spell the status lists (and the settlement contract its networks) out; this keeps
// them equal to the service's one source (the database enums, the state machines, the settlement
// networks' table).

import { configureSettlement } from "crypto-checkout-agent/contracts";
import {
  checkoutSessionObject,
  invoiceObject,
  recurringIntervals as publicIntervals,
  refundObject,
  subscriptionObject,
  sweepObject,
} from "crypto-checkout-agent/shapes";
import { describe, expect, it } from "vitest";
import { settlementNetworks } from "../chains/settlement-networks";
import { invoiceStatuses } from "../payments/invoice-state";
import { recurringIntervals } from "../recurring/subscription-periods";
import { subscriptionStatuses } from "../recurring/subscription-state";
import { refundStatuses } from "../refunds/refund-state";
import { sessionStatuses } from "../session-state/session-state";
import { sweepStatuses } from "../sweeps/sweep-state";

describe("the public objects' status lists", () => {
  it.each<[string, readonly string[], readonly string[]]>([
    ["invoice", invoiceObject.shape.status.options, invoiceStatuses],
    ["checkout session", checkoutSessionObject.shape.status.options, sessionStatuses],
    ["subscription", subscriptionObject.shape.status.options, subscriptionStatuses],
    ["sweep", sweepObject.shape.status.options, sweepStatuses],
    ["recurring interval", publicIntervals, recurringIntervals],
    ["refund (in lower case)", refundObject.shape.status.options, refundStatuses.map((s) => s.toLowerCase())],
  ])("%s statuses are the service's", (_kind, published, service) => {
    expect(published).toEqual(service);
  });
});

it("the settlement contract's networks are the service's", () => {
  const wallet = configureSettlement.input.body.shape.settlementWallets.element;
  expect(wallet.shape.network.options).toEqual(settlementNetworks);
});
