import type { ToolName } from "crypto-checkout-agent/catalog";

// Which REST operation each MCP tool does, and where its arguments differ from that operation's
// inputs on purpose (each with its reason). app/mcp/tool-output-schemas.test.ts holds the results
// to the twin, app/mcp/tool-input-schemas.test.ts the arguments.

export type RestTwin = {
  /** `<method> <path>` as in the OpenAPI document. */
  route: string;
  /** Arguments the tool takes that the REST operation's body, query and path do not. */
  extra?: Record<string, string>;
  /** REST inputs the tool leaves out. */
  missing?: Record<string, string>;
};

const endpoints = "/api/private/organization/webhook-endpoints";

const confirmation = {
  confirmationToken: "the MCP confirmation step: a preview first, then the call with its token",
};

export const restTwins: Partial<Record<ToolName, RestTwin>> = {
  service_checkout_sessions_create: {
    route: "post /api/checkout-sessions",
    extra: { idempotencyKey: "REST's Idempotency-Key header, which a tool call cannot send" },
  },
  service_checkout_sessions_get: { route: "get /api/checkout-sessions/{id}" },
  service_paylinks_create: { route: "post /api/private/paylinks/create" },
  service_paylinks_list: { route: "get /api/private/paylinks" },
  service_paylinks_get: { route: "get /api/private/paylinks/{id}" },
  service_paylinks_edit: { route: "post /api/private/paylinks/edit" },
  service_paylinks_disable: {
    route: "post /api/private/paylinks/disable",
    extra: confirmation,
    missing: { confirm: "the confirmation step stands for REST's `confirm: true`" },
  },
  service_transactions_list: { route: "get /api/private/transactions" },
  service_subscriptions_list: { route: "get /api/private/subscriptions" },
  service_subscriptions_get: { route: "get /api/private/subscriptions/{id}" },
  service_subscriptions_cancel: { route: "post /api/private/subscriptions/{id}/cancel", extra: confirmation },
  service_refunds_create: { route: "post /api/private/refunds", extra: confirmation },
  service_refunds_list: { route: "get /api/private/refunds" },
  service_refunds_get: { route: "get /api/private/refunds/{id}" },
  service_sweeps_list: { route: "get /api/private/sweeps" },
  service_organization_get: { route: "get /api/private/organization/current" },
  service_organization_update: {
    route: "put /api/private/organization/current",
    missing: {
      settlementWallets: "routes money: service_settlement_configure, with its confirmation",
      refundAgentDailyCapUsd: "refunds.configure has no MCP door: an agent must not raise its own cap",
      autoRefundOverpayments: "refunds.configure has no MCP door",
    },
  },
  service_settlement_configure: {
    route: "put /api/private/organization/current",
    extra: confirmation,
    missing: {
      name: "service_organization_update's",
      webhookUrl: "service_organization_update's",
      apiVersion: "service_organization_update's",
      subscriptionGraceDays: "service_organization_update's",
      brandDisplayName: "service_organization_update's",
      brandColor: "service_organization_update's",
      logo: "service_organization_update's",
      refundAgentDailyCapUsd: "refunds.configure has no MCP door",
      autoRefundOverpayments: "refunds.configure has no MCP door",
    },
  },
  service_webhooks_create: { route: `post ${endpoints}` },
  service_webhooks_list: { route: `get ${endpoints}` },
  service_webhooks_update: { route: `patch ${endpoints}/{id}` },
  service_webhooks_rotate_secret: { route: `post ${endpoints}/{id}/rotate-secret`, extra: confirmation },
  service_webhooks_send_test: { route: `post ${endpoints}/{id}/test` },
  service_webhooks_list_deliveries: { route: `get ${endpoints}/{id}/deliveries` },
  service_webhooks_list_event_deliveries: { route: "get /api/private/events/{id}/deliveries" },
  service_webhooks_redeliver: { route: `post ${endpoints}/{id}/redeliver` },
};

export const withoutTwin: Partial<Record<ToolName, string>> = {
  service_auth_status: "the connection's own identity, which no REST operation answers",
  service_agent_register: "one result for REST's two answers (the credential, or still waiting)",
  service_payments_status: "a paid/not paid summary of GET /api/checkout-sessions/{id}",
  service_agent_setup: "local only: the kit's own setup",
  service_agent_checkin: "local only: the kit stores the credential and never shows it",
  service_webhooks_verify_signature: "local only: checked offline",
};
