// Each route with a contract parses its body and query with a schema of exactly the contract's
// fields (lib/validation/refine-contract-input.ts), so what the route accepts and what the MCP
// tool, CLI and OpenAPI operation derive from the contract cannot drift apart. On a route several
// contracts share (its own and its parts) the schema takes all their fields.
import { type Contract, contracts } from "crypto-checkout-agent/contracts";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { createCheckoutSessionSchema } from "@/lib/checkout/checkout-session-schemas";
import { updateOrganizationSchema } from "@/lib/organizations/organization-schemas";
import {
  createPaylinkSchema,
  disablePaylinkSchema,
  editPaylinkSchema,
  listPaylinksQuery,
} from "@/lib/paylinks/paylink-schemas";
import { listTransactionsQuery } from "@/lib/payments/payment-schemas";
import { createRefundSchema, listRefundsQuery } from "@/lib/refunds/refund-schemas";
import { reportQuerySchema } from "@/lib/reports/report-schemas";
import { cancelSubscriptionSchema, listSubscriptionsQuery } from "@/lib/subscriptions/subscription-schemas";
import { sweepListQuery } from "@/lib/sweeps/list-sweeps";
import {
  createWebhookEndpointSchema,
  listEndpointDeliveriesQuery,
  listEventDeliveriesQuery,
  redeliverSchema,
  sendTestEventSchema,
  updateWebhookEndpointSchema,
} from "@/lib/webhooks/webhook-endpoint-schemas";

type Parsed = { body?: z.core.$ZodType; query?: z.core.$ZodType };

/** What each route handler parses (app/api/**\/route.ts). */
const routeSchemas: Record<string, Parsed> = {
  "post /api/checkout-sessions": { body: createCheckoutSessionSchema },
  "put /api/private/organization/current": { body: updateOrganizationSchema },
  "get /api/private/sweeps": { query: sweepListQuery },
  "post /api/private/paylinks/create": { body: createPaylinkSchema },
  "get /api/private/paylinks": { query: listPaylinksQuery },
  "post /api/private/paylinks/edit": { body: editPaylinkSchema },
  "post /api/private/paylinks/disable": { body: disablePaylinkSchema },
  "get /api/private/transactions": { query: listTransactionsQuery },
  "post /api/private/refunds": { body: createRefundSchema },
  "get /api/private/refunds": { query: listRefundsQuery },
  "get /api/private/reports/payments": { query: reportQuerySchema },
  "get /api/private/reports/refunds": { query: reportQuerySchema },
  "get /api/private/subscriptions": { query: listSubscriptionsQuery },
  "post /api/private/subscriptions/{id}/cancel": { body: cancelSubscriptionSchema },
  "post /api/private/organization/webhook-endpoints": { body: createWebhookEndpointSchema },
  "patch /api/private/organization/webhook-endpoints/{id}": { body: updateWebhookEndpointSchema },
  "post /api/private/organization/webhook-endpoints/{id}/test": { body: sendTestEventSchema },
  "get /api/private/organization/webhook-endpoints/{id}/deliveries": { query: listEndpointDeliveriesQuery },
  "get /api/private/events/{id}/deliveries": { query: listEventDeliveriesQuery },
  "post /api/private/organization/webhook-endpoints/{id}/redeliver": { body: redeliverSchema },
};

const route = (contract: Contract) => `${contract.method} ${contract.path}`;

/** The fields a schema parses; a union's are its variants' (each parses some of them). */
function fieldsOf(schema: z.core.$ZodType | undefined): string[] {
  if (schema === undefined) return [];
  if (schema instanceof z.ZodUnion) return [...new Set(schema.options.flatMap(fieldsOf))].sort();
  if (schema instanceof z.ZodObject) return Object.keys(schema.shape).sort();
  throw new Error("a route's schema is an object or a union of objects");
}

const contractFields = (served: string, part: "body" | "query") => [
  ...new Set(
    contracts
      .filter((contract) => route(contract) === served)
      .flatMap((contract) => Object.keys(contract.input[part]?.shape ?? {})),
  ),
];

const routes = [...new Set(contracts.map(route))];

describe("route input schemas", () => {
  it.each(routes)("%s parses exactly its contracts' body and query", (served) => {
    const parsed = routeSchemas[served] ?? {};
    for (const part of ["body", "query"] as const) {
      expect({ part, fields: fieldsOf(parsed[part]) }).toEqual({
        part,
        fields: contractFields(served, part).sort(),
      });
    }
  });

  it("names only routes that have a contract", () => {
    expect(Object.keys(routeSchemas).filter((served) => !routes.includes(served))).toEqual([]);
  });
});
