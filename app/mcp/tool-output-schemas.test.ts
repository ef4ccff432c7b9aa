// Each MCP tool that does what a REST operation does returns that operation's object, in the
// same words: both schemas become JSON Schema the way the OpenAPI document makes them, and must be
// equal. Every tool is listed here, so a new tool says which operation it mirrors or why none.
import { type ToolName, toolByName, tools } from "crypto-checkout-agent/catalog";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { allOperations } from "@/app/api/openapi.json/openapi-document";

const endpoints = "/api/private/organization/webhook-endpoints";

const restTwins: Partial<Record<ToolName, string>> = {
  service_checkout_sessions_create: "post /api/checkout-sessions",
  service_checkout_sessions_get: "get /api/checkout-sessions/{id}",
  service_paylinks_create: "post /api/private/paylinks/create",
  service_paylinks_list: "get /api/private/paylinks",
  service_paylinks_get: "get /api/private/paylinks/{id}",
  service_paylinks_edit: "post /api/private/paylinks/edit",
  service_paylinks_disable: "post /api/private/paylinks/disable",
  service_transactions_list: "get /api/private/transactions",
  service_subscriptions_list: "get /api/private/subscriptions",
  service_subscriptions_get: "get /api/private/subscriptions/{id}",
  service_subscriptions_cancel: "post /api/private/subscriptions/{id}/cancel",
  service_refunds_create: "post /api/private/refunds",
  service_refunds_list: "get /api/private/refunds",
  service_refunds_get: "get /api/private/refunds/{id}",
  service_sweeps_list: "get /api/private/sweeps",
  service_organization_get: "get /api/private/organization/current",
  service_organization_update: "put /api/private/organization/current",
  service_settlement_configure: "put /api/private/organization/current",
  service_webhooks_create: `post ${endpoints}`,
  service_webhooks_list: `get ${endpoints}`,
  service_webhooks_update: `patch ${endpoints}/{id}`,
  service_webhooks_rotate_secret: `post ${endpoints}/{id}/rotate-secret`,
  service_webhooks_send_test: `post ${endpoints}/{id}/test`,
  service_webhooks_list_deliveries: `get ${endpoints}/{id}/deliveries`,
  service_webhooks_redeliver: `post ${endpoints}/{id}/redeliver`,
};

const withoutTwin: Partial<Record<ToolName, string>> = {
  service_auth_status: "the connection's own identity, which no REST operation answers",
  service_agent_register: "one result for REST's two answers (the credential, or still waiting)",
  service_payments_status: "a paid/not paid summary of GET /api/checkout-sessions/{id}",
  service_agent_setup: "local only: the kit's own setup",
  service_agent_checkin: "local only: the kit stores the credential and never shows it",
  service_webhooks_verify_signature: "local only: checked offline",
};

/** JSON Schema as lib/openapi/build-openapi-document.ts makes a response's. */
const jsonSchema = (schema: z.ZodType) => z.toJSONSchema(schema, { io: "output", unrepresentable: "any" });

/** The data a REST operation's success answer carries (inside `{success, data}` under /api/private). */
function restResult(route: string): z.ZodType {
  const operation = allOperations.find((candidate) => `${candidate.method} ${candidate.path}` === route);
  if (!operation) throw new Error(`no REST operation ${route}`);
  const [, success] = Object.entries(operation.responses).find(([status]) => status.startsWith("2")) ?? [];
  if (!success?.schema) throw new Error(`${route} documents no success body`);
  const { schema } = success;
  return schema instanceof z.ZodObject && "success" in schema.shape && "data" in schema.shape
    ? (schema.shape.data as z.ZodType)
    : schema;
}

describe("MCP tools' output schemas", () => {
  it("every tool names its REST twin or why it has none", () => {
    expect(tools.map((tool) => tool.name).sort()).toEqual(
      [...Object.keys(restTwins), ...Object.keys(withoutTwin)].sort(),
    );
  });

  it.each(Object.entries(restTwins))("%s returns what %s does", (name, route) => {
    const tool = toolByName.get(name);
    expect(tool).toBeDefined();
    expect(jsonSchema(tool?.outputSchema as z.ZodType)).toEqual(jsonSchema(restResult(route)));
  });

  it("tells a hand-copied object from the REST one", () => {
    const organization = restResult("get /api/private/organization/current") as z.ZodObject;
    const copy = z.object(organization.shape).omit({ apiVersion: true, subscriptionGraceDays: true });
    expect(jsonSchema(copy)).not.toEqual(jsonSchema(organization));
    expect(jsonSchema(z.object(organization.shape))).not.toEqual(jsonSchema(organization));
  });
});
