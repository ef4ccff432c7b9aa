import {
  errorEnvelope,
  listOf,
  subscriptionDetailObject,
  subscriptionObject,
} from "crypto-checkout-agent/shapes";
import { z } from "zod";
import { privateEnvelope } from "../openapi/common-schemas";
import { errorResponses } from "../openapi/error-responses";
import type { OperationSpec } from "../openapi/operation-spec";
import { cancelSubscriptionSchema, listSubscriptionsQuery } from "./subscription-schemas";

const idParam = z.object({ id: z.string().meta({ example: "sub_4fQh0r7Xq1s9bT2mN8kLp3Zy" }) });
const tags = ["Subscriptions"];

export const subscriptionOperations: OperationSpec[] = [
  {
    method: "get",
    path: "/api/private/subscriptions",
    operationId: "listSubscriptions",
    summary: "List subscriptions, newest first (filter by status or customer)",
    tags,
    auth: ["apiKey"],
    query: listSubscriptionsQuery,
    responses: {
      200: { description: "A page of subscriptions", schema: privateEnvelope(listOf(subscriptionObject)) },
      ...errorResponses(400, 401, 429),
    },
  },
  {
    method: "get",
    path: "/api/private/subscriptions/{id}",
    operationId: "retrieveSubscription",
    summary: "Retrieve a subscription with its invoices",
    tags,
    auth: ["apiKey"],
    params: idParam,
    responses: {
      200: { description: "The subscription", schema: privateEnvelope(subscriptionDetailObject) },
      ...errorResponses(401, 404, 429),
    },
  },
  {
    method: "post",
    path: "/api/private/subscriptions/{id}/cancel",
    operationId: "cancelSubscription",
    summary: "Cancel a subscription now, or at the end of the paid period",
    tags,
    auth: ["apiKey"],
    params: idParam,
    body: cancelSubscriptionSchema,
    responses: {
      200: { description: "The subscription", schema: privateEnvelope(subscriptionDetailObject) },
      ...errorResponses(400, 401, 404, 413, 415, 429),
      409: { description: "`subscription_cancelled`: it is already cancelled", schema: errorEnvelope },
    },
  },
];
