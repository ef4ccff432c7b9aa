// The agent kit's catalogue is published on its own and imports only zod, so it spells the status
// lists out; this keeps them equal to the service's one source (the database enums).

import { checkoutSessionObject, invoiceObject } from "crypto-checkout-agent/catalog";
import { describe, expect, it } from "vitest";
import { invoiceStatuses } from "../payments/invoice-state";
import { sessionStatuses } from "../session-state/session-state";

describe("the catalogue's status lists", () => {
  it.each([
    ["invoice", invoiceObject.shape.status.options, invoiceStatuses],
    ["checkout session", checkoutSessionObject.shape.status.options, sessionStatuses],
  ])("%s statuses are the service's", (_kind, catalogue, service) => {
    expect(catalogue).toEqual(service);
  });
});
