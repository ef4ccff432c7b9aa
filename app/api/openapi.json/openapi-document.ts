import { agentAccessOperations } from "@/lib/agent-access/openapi";
import { latestApiVersion } from "@/lib/api-version/api-versions";
import { checkoutOperations } from "@/lib/checkout/openapi";
import { config } from "@/lib/config";
import { serviceOperations } from "@/lib/health/openapi";
import { paidOperations } from "@/lib/mpp/openapi";
import { buildOpenApiDocument } from "@/lib/openapi/build-openapi-document";
import { organizationOperations } from "@/lib/organizations/openapi";
import { paylinkOperations } from "@/lib/paylinks/openapi";
import { paymentOperations } from "@/lib/payments/openapi";
import { refundOperations } from "@/lib/refunds/openapi";
import { reportOperations } from "@/lib/reports/openapi";
import { subscriptionOperations } from "@/lib/subscriptions/openapi";
import { sweepOperations } from "@/lib/sweeps/openapi";
import { webhookOperations } from "@/lib/webhooks/openapi";

// Every domain's operations; a new domain adds its list here. This module sits beside its route,
// above lib, because it is the one place that depends on every domain.
export const allOperations = [
  ...checkoutOperations,
  ...paylinkOperations,
  ...paymentOperations,
  ...webhookOperations,
  ...organizationOperations,
  ...serviceOperations,
  ...agentAccessOperations,
  ...subscriptionOperations,
  ...sweepOperations,
  ...refundOperations,
  ...reportOperations,
  ...paidOperations,
];

const tags = {
  "Checkout sessions": "Create a hosted checkout for an order and follow it",
  "Hosted checkout": "What the hosted payment page calls; no credential",
  Paylinks: "Reusable fixed-price payment links",
  Payments: "Invoices and their on-chain payments",
  Webhooks: "Signed event deliveries to the merchant's endpoints",
  Organization: "The organization of the credential: settings, settlement wallets, API key status",
  "Agent access": "How AI coding agents get a credential of their own",
  Subscriptions: "Recurring prices: renewal invoices the customer pays each period",
  Settlement: "Funds swept from deposit addresses to the settlement wallets",
  Refunds: "Money given back to buyers on chain, from the refund wallet",
  Reports: "The merchant's books: payments and refunds over a period, as CSV or JSON",
  x402: "Agents pay paylinks and checkout sessions over HTTP 402 (x402 v2), no account needed",
  Service: "Liveness and readiness",
};

let document: ReturnType<typeof buildOpenApiDocument> | undefined;

export function openApiDocument() {
  document ??= buildOpenApiDocument({
    title: `${config().serviceName} API`,
    description:
      "Hosted crypto checkout: create Checkout Sessions, send buyers to the hosted page, fulfil on the signed payment.confirmed webhook. Errors use one envelope; unknown request fields are rejected. Versions are dates: an organization is pinned to one, a request may name another in `X-Service-Version`, and every response says which it is in.",
    version: latestApiVersion,
    serverUrl: config().baseUrl,
    tags,
    operations: allOperations,
  });
  return document;
}
