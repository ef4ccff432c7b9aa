import { listNote, toolResult } from "crypto-checkout-agent/catalog";
import { parseCreateCheckoutSession } from "../../checkout/checkout-session-schemas";

import { getCheckoutSession } from "../../checkout/get-checkout-session";
import { openCheckoutSession } from "../../checkout/open-checkout-session";
import { serializeCheckoutSessionDetail } from "../../checkout/serialize-checkout-session";
import { hashRequest } from "../../idempotency/hash-request";
import { parseIdempotencyKey } from "../../idempotency/parse-idempotency-key";
import { listTransactions } from "../../payments/list-transactions";
import { serializeInvoice } from "../../payments/serialize-invoice";
import { listPage } from "../../validation/list-page";
import { pageOf, type ToolHandlers } from "./tool-context";

export const paymentTools: ToolHandlers<
  "service_checkout_sessions_" | "service_payments_" | "service_transactions_"
> = {
  service_checkout_sessions_create: async ({ idempotencyKey, ...body }, { db, caller }) => {
    const request = parseCreateCheckoutSession(body);
    const key = parseIdempotencyKey(idempotencyKey, { required: true });
    const { organizationId } = caller;
    const result = await openCheckoutSession(db, {
      organizationId,
      request,
      idempotency: key ? { organizationId, key, requestHash: hashRequest(body) } : null,
    });
    return toolResult(
      result.body as Record<string, unknown>,
      result.replayed
        ? "Replayed: the session created by the first call with this idempotencyKey."
        : undefined,
    );
  },

  service_checkout_sessions_get: async ({ id }, { db, caller }) =>
    toolResult(serializeCheckoutSessionDetail(await getCheckoutSession(db, caller.organizationId, id))),

  service_payments_status: async ({ checkoutSessionId }, { db, caller }) => {
    const session = serializeCheckoutSessionDetail(
      await getCheckoutSession(db, caller.organizationId, checkoutSessionId),
    );
    return toolResult({
      object: "payment_status",
      checkoutSessionId: session.id,
      sessionStatus: session.status,
      paid: session.payment?.status === "CONFIRMED",
      payment: session.payment,
    });
  },

  service_transactions_list: async (input, { db, caller }) => {
    const paging = pageOf(input);
    const { invoices, total } = await listTransactions(db, caller.organizationId, paging);
    const page = listPage(invoices.map(serializeInvoice), paging, total);
    return toolResult(page, listNote(page));
  },
};
