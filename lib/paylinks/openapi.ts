import { listOf, paylinkObject } from "crypto-checkout-agent/shapes";
import { z } from "zod";
import { privateEnvelope } from "../openapi/common-schemas";
import { errorResponses } from "../openapi/error-responses";
import type { OperationSpec } from "../openapi/operation-spec";
import {
  createPaylinkSchema,
  disablePaylinkSchema,
  editPaylinkSchema,
  listPaylinksQuery,
} from "./paylink-schemas";
import { publicPaylinkObject } from "./serialize-paylink";

const idParam = z.object({ id: z.uuid() });
const paylink = privateEnvelope(paylinkObject);

export const paylinkOperations: OperationSpec[] = [
  {
    method: "post",
    path: "/api/private/paylinks/create",
    operationId: "createPaylink",
    summary: "Create a paylink",
    tags: ["Paylinks"],
    auth: ["apiKey"],
    body: createPaylinkSchema,
    responses: {
      201: { description: "The paylink", schema: paylink },
      ...errorResponses(400, 401, 413, 415, 429),
    },
  },
  {
    method: "get",
    path: "/api/private/paylinks",
    operationId: "listPaylinks",
    summary: "List paylinks, newest first",
    tags: ["Paylinks"],
    auth: ["apiKey"],
    query: listPaylinksQuery,
    responses: {
      200: { description: "A page of paylinks", schema: privateEnvelope(listOf(paylinkObject)) },
      ...errorResponses(400, 401, 429),
    },
  },
  {
    method: "get",
    path: "/api/private/paylinks/{id}",
    operationId: "retrievePaylink",
    summary: "Retrieve a paylink",
    tags: ["Paylinks"],
    auth: ["apiKey"],
    params: idParam,
    responses: { 200: { description: "The paylink", schema: paylink }, ...errorResponses(401, 404, 429) },
  },
  {
    method: "post",
    path: "/api/private/paylinks/edit",
    operationId: "editPaylink",
    summary: "Edit a paylink (sessions already created keep their price)",
    tags: ["Paylinks"],
    auth: ["apiKey"],
    body: editPaylinkSchema,
    responses: {
      200: { description: "The paylink", schema: paylink },
      ...errorResponses(400, 401, 404, 429),
    },
  },
  {
    method: "post",
    path: "/api/private/paylinks/disable",
    operationId: "disablePaylink",
    summary: "Disable a paylink (requires confirm: true)",
    tags: ["Paylinks"],
    auth: ["apiKey"],
    body: disablePaylinkSchema,
    responses: {
      200: { description: "The disabled paylink", schema: paylink },
      ...errorResponses(400, 401, 404, 429),
    },
  },
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
