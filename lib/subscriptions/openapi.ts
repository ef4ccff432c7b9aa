import { cancelSubscription, listSubscriptions, retrieveSubscription } from "crypto-checkout-agent/contracts";
import { errorEnvelope } from "crypto-checkout-agent/shapes";
import { z } from "zod";
import { errorResponses } from "../openapi/error-responses";
import { contractOperation, type OperationSpec } from "../openapi/operation-spec";
import { cancelSubscriptionSchema, listSubscriptionsQuery } from "./subscription-schemas";

const idParam = z.object({ id: z.string().meta({ example: "sub_4fQh0r7Xq1s9bT2mN8kLp3Zy" }) });
const tags = ["Subscriptions"];

export const subscriptionOperations: OperationSpec[] = [
  contractOperation(listSubscriptions, {
    result: "A page of subscriptions",
    summary: "List subscriptions, newest first (filter by status or customer)",
    tags,
    auth: ["apiKey"],
    query: listSubscriptionsQuery,
    responses: {
      ...errorResponses(400, 401, 429),
    },
  }),
  contractOperation(retrieveSubscription, {
    result: "The subscription",
    summary: "Retrieve a subscription with its invoices",
    tags,
    auth: ["apiKey"],
    params: idParam,
    responses: {
      ...errorResponses(401, 404, 429),
    },
  }),
  contractOperation(cancelSubscription, {
    result: "The subscription",
    summary: "Cancel a subscription now, or at the end of the paid period",
    tags,
    auth: ["apiKey"],
    params: idParam,
    body: cancelSubscriptionSchema,
    responses: {
      ...errorResponses(400, 401, 404, 413, 415, 429),
      409: { description: "`subscription_cancelled`: it is already cancelled", schema: errorEnvelope },
    },
  }),
];
