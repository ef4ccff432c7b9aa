// Who may do what: one row per operation, naming every door it has (REST route, MCP tool, CLI
// command, dashboard action) and what it needs. Every door reads this table on every request
// (lib/authority/authorize.ts); lib/authority/authority-table.int.test.ts walks it with each caller.

export type Requirement = {
  /** `write` changes something; a read-only credential or token may only `read`. */
  access: "read" | "write";
  /** `owner`: only an owner (or the organization's API key, or an owner-approved agent). */
  role: "member" | "owner";
  /**
   * Changes where money goes. An agent credential or an OAuth token cannot decide that: its
   * call becomes a proposal that an owner confirms in the dashboard.
   */
  routesMoney?: true;
  /** Only a person signed in to the dashboard (never a credential or token). */
  sessionOnly?: true;
  /** The dashboard asks for a sign-in within the last 10 minutes first. */
  recentSignIn?: true;
  /**
   * Only who decides where money goes alone: an owner signed in, or the API key. Never an agent
   * credential or an OAuth token, whatever their access (they only propose).
   */
  decidersOnly?: true;
};

type Doors = {
  rest?: readonly string[];
  mcp?: readonly string[];
  cli?: readonly string[];
  dashboard?: readonly string[];
};

type Operation = Requirement & Doors;

const member = { role: "member" } as const;
const owner = { role: "owner" } as const;
const read = { access: "read" } as const;
const write = { access: "write" } as const;

export const operations = {
  "organization.read": {
    ...read,
    ...member,
    rest: ["GET /api/private/organization/current"],
    mcp: ["service_auth_status", "service_organization_get"],
    cli: ["auth:status"],
    dashboard: ["switchOrganization"],
  },
  // Signing up a new account: public over REST and the kit; an MCP connection is signed in already,
  // so the remote tool only explains that.
  "agents.register": { ...write, ...member, mcp: ["service_agent_register"], cli: ["auth:agent-register"] },
  "organization.update": {
    ...write,
    ...owner,
    rest: ["PUT /api/private/organization/current"],
    mcp: ["service_organization_update"],
    cli: ["organization:update"],
    dashboard: ["renameOrganization", "updateBranding", "updateSubscriptionGrace"],
  },
  "settlement.change": {
    ...write,
    ...owner,
    routesMoney: true,
    recentSignIn: true,
    // PUT /api/private/organization/current with settlementWallets is this operation too.
    rest: ["PUT /api/private/organization/current#settlementWallets"],
    mcp: ["service_settlement_configure"],
    cli: ["settlement:configure"],
    dashboard: ["updateSettlementWallets"],
  },
  "settlement.decide": {
    ...write,
    ...owner,
    sessionOnly: true,
    recentSignIn: true,
    dashboard: ["confirmSettlementChange", "rejectSettlementChange", "cancelSettlementChange"],
  },
  "sweeps.read": {
    ...read,
    ...member,
    rest: ["GET /api/private/sweeps"],
    mcp: ["service_sweeps_list"],
    cli: ["settlement:sweeps"],
  },
  "sweeps.retry": { ...write, ...owner, sessionOnly: true, dashboard: ["retrySweep"] },
  "refunds.read": {
    ...read,
    ...member,
    rest: ["GET /api/private/refunds", "GET /api/private/refunds/{id}"],
    mcp: ["service_refunds_list", "service_refunds_get"],
    cli: ["refunds:list", "refunds:get"],
  },
  // A refund's claim link (`claimUrl`) moves money to whoever types an address into it: the
  // serializer shows it only to those who decide (lib/refunds/serialize-refund.ts). MCP tool
  // results and webhook events never carry it, whoever the credential is.
  "refunds.readClaimLinks": {
    ...read,
    ...owner,
    decidersOnly: true,
    rest: [
      "GET /api/private/refunds#claimUrl",
      "GET /api/private/refunds/{id}#claimUrl",
      "POST /api/private/refunds#claimUrl",
    ],
    dashboard: ["RefundPage"],
  },
  // Refunds send money to addresses the merchant does not own. Agents and OAuth tokens are
  // allowed refunds to the payer within the daily cap; the rest they only propose
  // (lib/authority/authorize.ts refundDecision).
  "refunds.create": {
    ...write,
    ...owner,
    routesMoney: true,
    recentSignIn: true,
    rest: ["POST /api/private/refunds"],
    mcp: ["service_refunds_create"],
    cli: ["refunds:create"],
    dashboard: ["createRefund"],
  },
  // What agents may refund on their own, and automatic refunds. An agent or OAuth token is refused
  // outright (lib/refunds/assert-may-configure-refunds.ts): it must not raise its own cap.
  "refunds.configure": {
    ...write,
    ...owner,
    routesMoney: true,
    rest: [
      "PUT /api/private/organization/current#refundAgentDailyCapUsd",
      "PUT /api/private/organization/current#autoRefundOverpayments",
    ],
    dashboard: ["updateRefundSettings"],
  },
  // An owner confirms or rejects a refund an agent or OAuth token proposed, like a wallet change.
  "refunds.decide": {
    ...write,
    ...owner,
    sessionOnly: true,
    recentSignIn: true,
    dashboard: ["confirmRefund", "rejectRefund"],
  },
  // Withdrawing a refund before it is sent.
  "refunds.cancel": { ...write, ...owner, dashboard: ["cancelRefund"] },
  // Re-sending a claim link retires the old one and shows the new one: an old or stolen session
  // must not get a link that pays whoever types an address.
  "refunds.resendClaimLink": { ...write, ...owner, recentSignIn: true, dashboard: ["resendClaimLink"] },
  "checkoutSessions.read": {
    ...read,
    ...member,
    rest: ["GET /api/checkout-sessions/{id}"],
    mcp: ["service_checkout_sessions_get", "service_payments_status"],
    cli: ["payments:status"],
  },
  "checkoutSessions.create": {
    ...write,
    ...member,
    rest: ["POST /api/checkout-sessions"],
    mcp: ["service_checkout_sessions_create"],
    cli: ["payments:create"],
  },
  "transactions.read": {
    ...read,
    ...member,
    rest: ["GET /api/private/transactions"],
    mcp: ["service_transactions_list"],
  },
  "paylinks.read": {
    ...read,
    ...member,
    rest: ["GET /api/private/paylinks", "GET /api/private/paylinks/{id}"],
    mcp: ["service_paylinks_list", "service_paylinks_get"],
    cli: ["paylinks:list", "paylinks:get"],
  },
  "paylinks.write": {
    ...write,
    ...member,
    rest: [
      "POST /api/private/paylinks/create",
      "POST /api/private/paylinks/edit",
      "POST /api/private/paylinks/disable",
    ],
    mcp: ["service_paylinks_create", "service_paylinks_edit", "service_paylinks_disable"],
    cli: ["paylinks:create", "paylinks:disable"],
    dashboard: ["createPaylink", "editPaylink", "enablePaylink", "disablePaylink"],
  },
  "subscriptions.read": {
    ...read,
    ...member,
    rest: ["GET /api/private/subscriptions", "GET /api/private/subscriptions/{id}"],
    mcp: ["service_subscriptions_list", "service_subscriptions_get"],
    cli: ["subscriptions:list", "subscriptions:get"],
  },
  "subscriptions.cancel": {
    ...write,
    ...owner,
    rest: ["POST /api/private/subscriptions/{id}/cancel"],
    mcp: ["service_subscriptions_cancel"],
    cli: ["subscriptions:cancel"],
    dashboard: ["cancelSubscription"],
  },
  "webhooks.read": {
    ...read,
    ...member,
    rest: [
      "GET /api/private/organization/webhook-endpoints",
      "GET /api/private/organization/webhook-endpoints/{id}",
      "GET /api/private/organization/webhook-endpoints/{id}/deliveries",
      "GET /api/private/events/{id}/deliveries",
    ],
    mcp: [
      "service_webhooks_list",
      "service_webhooks_list_deliveries",
      "service_webhooks_list_event_deliveries",
    ],
  },
  "webhooks.manage": {
    ...write,
    ...owner,
    rest: [
      "POST /api/private/organization/webhook-endpoints",
      "PATCH /api/private/organization/webhook-endpoints/{id}",
      "DELETE /api/private/organization/webhook-endpoints/{id}",
      "POST /api/private/organization/webhook-endpoints/{id}/rotate-secret",
      // The default webhook URL is an endpoint too.
      "PUT /api/private/organization/current#webhookUrl",
    ],
    mcp: ["service_webhooks_create", "service_webhooks_update", "service_webhooks_rotate_secret"],
    cli: ["webhooks:configure"],
    dashboard: [
      "createWebhookEndpoint",
      "setWebhookEndpointEnabled",
      "rotateWebhookSecret",
      "deleteEndpoint",
      "updateWebhookUrl",
    ],
  },
  "webhooks.test": {
    ...write,
    ...member,
    rest: [
      "POST /api/private/organization/webhook-endpoints/{id}/test",
      "POST /api/private/organization/webhook-endpoints/{id}/redeliver",
    ],
    mcp: ["service_webhooks_send_test", "service_webhooks_redeliver"],
    dashboard: ["sendTestEvent", "redeliverEvent"],
  },
  "apiKeys.read": { ...read, ...member, rest: ["GET /api/private/organization/api-key"] },
  // A new key can do all an owner's server does: the dashboard asks for a recent sign-in first.
  // Revoking one only takes power away, so it never waits for a sign-in.
  "apiKeys.create": {
    ...write,
    ...owner,
    sessionOnly: true,
    recentSignIn: true,
    dashboard: ["createApiKey"],
  },
  "apiKeys.manage": { ...write, ...owner, sessionOnly: true, dashboard: ["revokeApiKey"] },
  // An invitation (an owner's above all) hands out decisions over where money goes.
  "team.invite": { ...write, ...owner, sessionOnly: true, recentSignIn: true, dashboard: ["inviteMember"] },
  "team.manage": {
    ...write,
    ...owner,
    sessionOnly: true,
    dashboard: ["removeMember", "cancelInvitation"],
  },
  "agents.approve": {
    ...write,
    ...owner,
    sessionOnly: true,
    rest: ["POST /api/private/agent/setup/lookup", "POST /api/private/agent/setup/authorize"],
    dashboard: ["approveAgentSetup"],
  },
  "agents.revoke": { ...write, ...owner, sessionOnly: true, dashboard: ["revokeAgentCredential"] },
  // The consent page: members may grant read access only (lib/oauth/approve-authorization.ts).
  "oauth.approveRead": { ...write, ...member, sessionOnly: true, dashboard: ["approveOAuthRead"] },
  "oauth.approveWrite": { ...write, ...owner, sessionOnly: true, dashboard: ["approveOAuthWrite"] },
  // Revoking a connected app's grant only takes access away.
  "oauth.revoke": { ...write, ...member, sessionOnly: true, dashboard: ["revokeGrant"] },
} as const satisfies Record<string, Operation>;

export type OperationId = keyof typeof operations;

export function requirementOf(operation: OperationId): Requirement {
  return operations[operation];
}

/** The operation behind an MCP tool of the remote server. */
export function operationOfTool(tool: string): OperationId | undefined {
  return (Object.keys(operations) as OperationId[]).find((id) =>
    ((operations[id] as Doors).mcp ?? []).includes(tool),
  );
}
