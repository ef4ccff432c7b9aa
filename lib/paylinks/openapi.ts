import {
  createPaylink,
  disablePaylink,
  editPaylink,
  listPaylinks,
  retrievePaylink,
} from "crypto-checkout-agent/contracts";
import { paylinkObject } from "crypto-checkout-agent/shapes";
import { z } from "zod";
import { privateEnvelope } from "../openapi/common-schemas";
import { errorResponses } from "../openapi/error-responses";
import { contractOperation, type OperationSpec } from "../openapi/operation-spec";
import {
  createPaylinkSchema,
  disablePaylinkSchema,
  editPaylinkSchema,
  listPaylinksQuery,
} from "./paylink-schemas";
import { publicPaylinkObject } from "./serialize-paylink";

const idParam = z.object({ id: z.uuid() });
const _paylink = privateEnvelope(paylinkObject);

export const paylinkOperations: OperationSpec[] = [
  contractOperation(createPaylink, {
    result: "The paylink",
    summary: "Create a paylink",
    tags: ["Paylinks"],
    auth: ["apiKey"],
    body: createPaylinkSchema,
    responses: {
      ...errorResponses(400, 401, 413, 415, 429),
    },
  }),
  contractOperation(listPaylinks, {
    result: "A page of paylinks",
    summary: "List paylinks, newest first",
    tags: ["Paylinks"],
    auth: ["apiKey"],
    query: listPaylinksQuery,
    responses: {
      ...errorResponses(400, 401, 429),
    },
  }),
  contractOperation(retrievePaylink, {
    result: "The paylink",
    summary: "Retrieve a paylink",
    tags: ["Paylinks"],
    auth: ["apiKey"],
    params: idParam,
    responses: errorResponses(401, 404, 429),
  }),
  contractOperation(editPaylink, {
    result: "The paylink",
    summary: "Edit a paylink (sessions already created keep their price)",
    tags: ["Paylinks"],
    auth: ["apiKey"],
    body: editPaylinkSchema,
    responses: {
      ...errorResponses(400, 401, 404, 429),
    },
  }),
  contractOperation(disablePaylink, {
    result: "The disabled paylink",
    summary: "Disable a paylink (requires confirm: true)",
    tags: ["Paylinks"],
    auth: ["apiKey"],
    body: disablePaylinkSchema,
    responses: {
      ...errorResponses(400, 401, 404, 429),
    },
  }),
  {
    method: "get",
    path: "/api/public/paylinks/{id}",
    operationId: "retrievePublicPaylink",
    summary: "A paylink as buyers see it (disabled ones are 404)",
    tags: ["Hosted checkout"],
    auth: ["none"],
    params: idParam,
    responses: {
      200: { description: "The paylink", schema: publicPaylinkObject },
      ...errorResponses(404, 429),
    },
  },
];
