import { agentAccessOperations } from "../agent-access/openapi";
import { checkoutOperations } from "../checkout/openapi";
import { config } from "../config";
import { organizationOperations } from "../organizations/openapi";
import { paylinkOperations } from "../paylinks/openapi";
import { paymentOperations } from "../payments/openapi";
import { subscriptionOperations } from "../subscriptions/openapi";
import { sweepOperations } from "../sweeps/openapi";
import { webhookOperations } from "../webhooks/openapi";
import { buildOpenApiDocument } from "./build-openapi-document";

// Every domain's operations; a new domain adds its list here.
export const allOperations = [
  ...checkoutOperations,
  ...paylinkOperations,
  ...paymentOperations,
  ...subscriptionOperations,
  ...sweepOperations,
  ...webhookOperations,
  ...organizationOperations,
  ...agentAccessOperations,
];

let document: ReturnType<typeof buildOpenApiDocument> | undefined;

export function openApiDocument() {
  document ??= buildOpenApiDocument({
    title: `${config().serviceName} API`,
    version: "2026-11-22",
    serverUrl: config().baseUrl,
    operations: allOperations,
  });
  return document;
}
