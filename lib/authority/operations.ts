import { type ToolDefinition, tools } from "crypto-checkout-agent/catalog";
import { type Contract, contracts } from "crypto-checkout-agent/contracts";

// Who may do what: one row per operation, naming every door it has (REST route, MCP tool, CLI
// command, dashboard action) and what it needs. Every door reads this table on every request
// (lib/authority/authorize.ts); lib/authority/authority-table.int.test.ts walks it with each caller.
// An operation's contract (crypto-checkout-agent/contracts) names its row and brings its REST
// route, MCP tool and CLI commands; a row lists only the doors no contract has (dashboard actions,
// a shared route's fields, routes of the dashboard's own).

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

const rows = {
  "organization.read": {
    ...read,
    ...member,
    dashboard: ["switchOrganization"],
  },
  // Signing up a new account: public over REST and the kit; an MCP connection is signed in already,
  // so the remote tool only explains that.
  "agents.register": { ...write, ...member, cli: ["auth:agent-register"] },
  "organization.update": {
    ...write,
    ...owner,
    dashboard: ["renameOrganization", "updateBranding", "updateSubscriptionGrace"],
  },
  // What every buyer's receipt says of the merchant (legal name, address, tax id, support email)
  // and whether receipts are emailed: a stolen credential or stale session must not point buyers
  // elsewhere, so only an owner (recently signed in to the dashboard) or the API key changes it,
  // never an agent credential or OAuth token (lib/organizations/assert-may-change-merchant-details.ts),
  // and every owner is emailed of a change (lib/organizations/update-organization.ts).
  // PUT /api/private/organization/current with legalName, legalAddress, taxId, supportEmail, receiptEmails.
  "receipts.configure": {
    ...write,
    ...owner,
    decidersOnly: true,
    recentSignIn: true,
    dashboard: ["updateReceiptSettings"],
  },
  "settlement.change": {
    ...write,
    ...owner,
    routesMoney: true,
    recentSignIn: true,
    // PUT /api/private/organization/current with settlementWallets (a part in its contract).
    dashboard: ["updateSettlementWallets"],
  },
  "settlement.decide": {
    ...write,
    ...owner,
    sessionOnly: true,
    recentSignIn: true,
    dashboard: ["confirmSettlementChange", "rejectSettlementChange", "cancelSettlementChange"],
  },
  "sweeps.read": { ...read, ...member },
  "sweeps.retry": { ...write, ...owner, sessionOnly: true, dashboard: ["retrySweep"] },
  "refunds.read": { ...read, ...member },
  // The books: payments and refunds reports (lib/reports/), members too.
  "reports.read": { ...read, ...member },
  // Last month's payments report emailed each month: it sends payers' addresses and amounts out of
  // the service, so only an owner (recently signed in to the dashboard) or the API key turns it on,
  // never an agent credential or OAuth token (lib/reports/assert-may-schedule-reports.ts), and it
  // goes only to owners. PUT /api/private/organization/current with monthlyReportEmail/To.
  "reports.schedule": {
    ...write,
    ...owner,
    decidersOnly: true,
    recentSignIn: true,
    dashboard: ["updateMonthlyReport"],
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
    dashboard: ["createRefund"],
  },
  // What agents may refund on their own, and automatic refunds. An agent or OAuth token is refused
  // outright (lib/refunds/assert-may-configure-refunds.ts): it must not raise its own cap.
  "refunds.configure": {
    ...write,
    ...owner,
    routesMoney: true,
    recentSignIn: true,
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
  "checkoutSessions.read": { ...read, ...member },
  "checkoutSessions.create": { ...write, ...member },
  "transactions.read": { ...read, ...member },
  "paylinks.read": { ...read, ...member },
  "paylinks.write": {
    ...write,
    ...member,
    dashboard: ["createPaylink", "editPaylink", "enablePaylink", "disablePaylink"],
  },
  "subscriptions.read": { ...read, ...member },
  "subscriptions.cancel": { ...write, ...owner, dashboard: ["cancelSubscription"] },
  "webhooks.read": { ...read, ...member },
  "webhooks.manage": {
    ...write,
    ...owner,
    // The default webhook URL is an endpoint too.
    rest: ["PUT /api/private/organization/current#webhookUrl"],
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
  // A stale (perhaps stolen) session must not remove the co-owners who would hear of its changes.
  "team.manage": {
    ...write,
    ...owner,
    sessionOnly: true,
    recentSignIn: true,
    dashboard: ["removeMember", "cancelInvitation"],
  },
  // An agent credential is a key to the organization, and write access for an app acts for an
  // owner: a stale (perhaps stolen) session must not hand either out.
  "agents.approve": {
    ...write,
    ...owner,
    sessionOnly: true,
    recentSignIn: true,
    rest: ["POST /api/private/agent/setup/lookup", "POST /api/private/agent/setup/authorize"],
    dashboard: ["approveAgentSetup"],
  },
  "agents.revoke": { ...write, ...owner, sessionOnly: true, dashboard: ["revokeAgentCredential"] },
  // The consent page: members may grant read access only (lib/oauth/approve-authorization.ts).
  "oauth.approveRead": { ...write, ...member, sessionOnly: true, dashboard: ["approveOAuthRead"] },
  "oauth.approveWrite": {
    ...write,
    ...owner,
    sessionOnly: true,
    recentSignIn: true,
    dashboard: ["approveOAuthWrite"],
  },
  // Revoking a connected app's grant only takes access away.
  "oauth.revoke": { ...write, ...member, sessionOnly: true, dashboard: ["revokeGrant"] },
} as const satisfies Record<string, Operation>;

export type OperationId = keyof typeof rows;

/**
 * A contract's REST door: its route, or for a part of a shared route (its contract's `part`)
 * `<route>#<field>` for each body field it owns.
 */
function restDoors(contract: Contract): string[] {
  const route = `${contract.method.toUpperCase()} ${contract.path}`;
  return contract.part
    ? Object.keys(contract.input.body?.shape ?? {}).map((field) => `${route}#${field}`)
    : [route];
}

function withContractDoors(id: string, row: Operation): Operation {
  const mine = contracts.filter((contract) => contract.authority.row === id);
  const rest = [...mine.flatMap(restDoors), ...(row.rest ?? [])];
  const mcp = (tools as readonly ToolDefinition[]).flatMap((tool) =>
    (tool.contract?.authority.row ?? tool.row) === id ? [tool.name] : [],
  );
  const cli = [
    ...mine.flatMap((contract) => (contract.cli ? [contract.cli.command] : [])),
    ...(row.cli ?? []),
  ];
  return {
    ...row,
    ...(rest.length ? { rest } : {}),
    ...(mcp.length ? { mcp } : {}),
    ...(cli.length ? { cli } : {}),
  };
}

/** Every row with the doors its contracts bring. */
export const operations = Object.fromEntries(
  Object.entries(rows).map(([id, row]) => [id, withContractDoors(id, row)]),
) as { [Id in OperationId]: (typeof rows)[Id] & Doors };

export function requirementOf(operation: OperationId): Requirement {
  return operations[operation];
}

/** The operation behind an MCP tool of the remote server. */
export function operationOfTool(tool: string): OperationId | undefined {
  return (Object.keys(operations) as OperationId[]).find((id) =>
    ((operations[id] as Doors).mcp ?? []).includes(tool),
  );
}
