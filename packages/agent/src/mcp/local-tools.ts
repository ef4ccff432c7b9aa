import {
  confirmationUsed,
  listNote,
  type Tool,
  type ToolDefinition,
  type ToolInput,
  type ToolName,
  type ToolResult,
  toolError,
  toolResult,
} from "../catalog";
import type { Kit } from "../context";
import {
  type Contract,
  type ReportContract,
  reportNote,
  reportPayments,
  reportRefunds,
  reportToolRows,
} from "../contracts";
import { usageError } from "../http/errors";
import { registerAgent } from "../operations/agent-register";
import { checkinAgent, startAgentSetup } from "../operations/agent-setup";
import * as api from "../operations/merchant-api";
import { verifyWebhookSignature } from "../webhooks/verify-signature";
import type { ToolCall } from "./serve-tools";

// The local server's tool handlers: the catalogue's tools (same names, schemas and errors as the
// remote /mcp), each answered by the service's REST API with the local credential, plus the
// local-only helpers (browser setup, check-in, offline signature verification). A tool with a
// REST twin is its operation's call, derived from the contract (passThrough); only the tools
// that differ on purpose have a handler here: a confirmation first, a header, a result trimmed.

type Json = Record<string, unknown>;
type Handler<N extends ToolName> = (input: ToolInput<N>, context: ToolContext) => Promise<ToolResult>;
/** Tools derived from a contract may pass through; every other tool needs its handler. */
type Handlers = { [N in ToolName as Tool<N> extends { contract: Contract } ? never : N]: Handler<N> } & {
  [N in ToolName as Tool<N> extends { contract: Contract } ? N : never]?: Handler<N>;
};
export type ToolContext = {
  kit: Kit;
  /** Asks the user through the client (MCP elicitation); null when it cannot. */
  askUser(message: string): Promise<boolean | null>;
  /** The serving layer's confirmation step for this call (./serve-tools.ts). */
  confirm: ToolCall<unknown>["confirm"];
};

// Tokens this process accepted: each confirms one action. They live five minutes and the key is
// this process's own, so memory is the whole record.
const usedTokens = new Set<string>();

/**
 * A destructive call goes ahead only with the user's yes: elicited, else through a confirmation
 * token, used once, for the state the preview showed.
 */
async function confirmed(
  preview: string,
  { confirm }: ToolContext,
  state: unknown,
): Promise<ToolResult | null> {
  const step = await confirm(preview, state);
  if (!step.proceed) return step.result;
  if (step.token === null) return null;
  if (usedTokens.has(step.token)) return toolError({ error: confirmationUsed });
  usedTokens.add(step.token);
  return null;
}

/** A page of a list (`object: "list"` with `page` and `hasMore`) says whether there is more. */
const isPage = (answer: Json) =>
  answer.object === "list" && typeof answer.page === "number" && typeof answer.hasMore === "boolean";

/** A tool that is its operation: the arguments sent where the contract takes them, REST's answer as the result. */
async function passThrough(contract: Contract, input: Json, { kit }: ToolContext): Promise<ToolResult> {
  const answer = (await api.request(kit, contract, api.restInputs(contract, input) as never)) as Json;
  return isPage(answer) ? listResult(answer) : toolResult(answer);
}

const listResult = (page: Json) => toolResult(page, listNote(page as { page: number; hasMore: boolean }));

/**
 * A refund as a tool returns it: without its claim link, which pays whoever enters an address.
 * The service omits it for agent credentials; with the API key the kit must drop it itself, as
 * the remote server does, since a tool's result reaches the model and its app.
 */
const refundResult = ({ claimUrl: _claimUrl, ...refund }: Json) => refund;

/** A report's tool: REST answers CSV unless asked for JSON; the tool reads rows, and names the CSV's link. */
async function reportTool(
  kit: Kit,
  report: ReportContract,
  input: { from: string; to: string; page?: number; rows?: number },
) {
  const page = await api.reportPage(kit, report, { ...input, rows: input.rows ?? reportToolRows });
  return toolResult(
    page,
    reportNote(page, api.reportCsvUrl(kit, report, { from: input.from, to: input.to })),
  );
}

const handlers: Handlers = {
  service_auth_status: async (_input, { kit }) => {
    const status = await api.authStatus(kit);
    return toolResult({
      object: "auth_status",
      organization: status.organization,
      credential:
        status.credential.kind === "agent"
          ? { kind: "agent", id: status.credential.id }
          : { kind: "api_key", id: "SERVICE_API_KEY" },
      access: status.credential.kind === "agent" ? status.credential.access : "write",
    });
  },
  service_agent_register: async (input, { kit, askUser }) => {
    const { checkinToken: _stored, ...args } = input;
    const pending = (await kit.readConfig()).pendingRegistration;
    if (!pending) {
      // A new account in someone's name: only with the email and project the user confirmed.
      const answer = await askUser(
        `Create a new Crypto Checkout account for ${args.email} named "${args.projectName}"? A confirmation link will be mailed to that address.`,
      );
      if (answer === false) {
        return toolError({
          error: { code: "confirmation_declined", message: "The user declined; no email was sent." },
        });
      }
    }
    // The local server keeps the registration's check-in token in config.json itself.
    const result = await registerAgent(kit, args);
    return toolResult(result);
  },
  service_checkout_sessions_create: async ({ idempotencyKey, ...session }, { kit }) =>
    toolResult(await api.createCheckoutSession(kit, session, idempotencyKey)),
  service_paylinks_disable: async (input, context) => {
    const paylink = await api.getPaylink(context.kit, input.id);
    const refusal = await confirmed(
      `Disable paylink "${paylink.name}" (${paylink.amount} ${paylink.currency}, ${paylink.url})? Buyers can no longer pay through it.`,
      context,
      paylink,
    );
    return refusal ?? toolResult(await api.disablePaylink(context.kit, input.id));
  },
  service_subscriptions_cancel: async (input, context) => {
    const subscription = await api.getSubscription(context.kit, input.id);
    const refusal = await confirmed(
      `Cancel subscription ${subscription.id} (${subscription.amount} ${subscription.currency} every ${subscription.intervalCount} ${subscription.interval})${input.atPeriodEnd ? " at the end of the paid period" : " now"}? No further renewals are issued.`,
      context,
      subscription,
    );
    return (
      refusal ?? toolResult(await api.cancelSubscription(context.kit, input.id, input.atPeriodEnd ?? false))
    );
  },
  service_refunds_create: async (input, context) => {
    const { confirmationToken: _token, ...refund } = input;
    const invoice = await api.paymentStatus(context.kit, refund.invoiceId);
    const to =
      refund.destination === "payer"
        ? "to the address that paid"
        : refund.destination === "claim"
          ? "through a claim link where the buyer enters an address"
          : `to ${refund.destination}, an address you named (a wrong address loses the money)`;
    const refusal = await confirmed(
      `Refund ${refund.amount ?? "all that is left of"} ${refund.amount ? "" : `the ${invoice.amountPaid} paid `}${invoice.token} on ${invoice.networkName ?? invoice.network} of invoice ${refund.invoiceId} ${to}? An agent's refund beyond the payer or the organization's daily cap becomes a proposal an owner confirms (status requires_approval).`,
      context,
      { amountPaid: invoice.amountPaid },
    );
    if (refusal) return refusal;
    const { idempotencyKey: _key, ...created } = await api.createRefund(context.kit, refund);
    return toolResult(refundResult(created));
  },
  service_refunds_list: async (input, { kit }) => {
    const page = await api.listRefunds(kit, input);
    return listResult({ ...page, data: (page.data as Json[]).map(refundResult) });
  },
  service_refunds_get: async ({ id }, { kit }) => toolResult(refundResult(await api.getRefund(kit, id))),
  service_reports_payments: (input, { kit }) => reportTool(kit, reportPayments, input),
  service_reports_refunds: (input, { kit }) => reportTool(kit, reportRefunds, input),
  service_payments_status: async ({ checkoutSessionId }, { kit }) => {
    const session = await api.getCheckoutSession(kit, checkoutSessionId);
    const payment = (session.payment as Json | null | undefined) ?? null;
    return toolResult({
      object: "payment_status",
      checkoutSessionId: session.id,
      sessionStatus: session.status,
      paid: payment?.status === "CONFIRMED",
      payment,
    });
  },
  service_settlement_configure: async (input, context) => {
    const { settlementWallets, pendingSettlementWallets } = await api.getOrganization(context.kit);
    const wallets = input.settlementWallets
      .map((wallet) => `${wallet.network}: ${wallet.address}`)
      .join("; ");
    const refusal = await confirmed(
      `Send swept payments to these settlement wallets from now on (networks left out lose theirs): ${wallets || "none"}?`,
      context,
      { settlementWallets, pendingSettlementWallets },
    );
    return (
      refusal ??
      toolResult(await api.updateOrganization(context.kit, { settlementWallets: input.settlementWallets }))
    );
  },
  service_webhooks_rotate_secret: async (input, context) => {
    const refusal = await confirmed(
      `Rotate the signing secret of webhook endpoint ${input.id}? Receivers must switch to the new secret before the old one expires.`,
      context,
      null,
    );
    return refusal ?? toolResult(await api.rotateWebhookSecret(context.kit, input.id));
  },
  service_agent_setup: async (input, { kit }) => {
    const { next, ...started } = await startAgentSetup(kit, input);
    return toolResult(started, next);
  },
  service_agent_checkin: async (_input, { kit }) => {
    const answer = await checkinAgent(kit);
    if (answer.object === "agent_credential") return toolResult(answer);
    return toolResult(
      { object: answer.object, status: answer.status, pollIntervalSeconds: answer.pollIntervalSeconds },
      `Still waiting for the user to type the code ${answer.userCode} at ${answer.loginUrl} and approve; call again in ${answer.pollIntervalSeconds} s.`,
    );
  },
  service_webhooks_verify_signature: async (input, { kit }) => {
    const secret =
      input.secret ?? kit.settings.webhookSecret ?? (await kit.readConfig()).webhook?.signingSecret;
    if (!secret) {
      throw usageError(
        "missing_webhook_secret",
        "Pass secret, or set SERVICE_WEBHOOK_SECRET for the local server.",
        "secret",
      );
    }
    const check = verifyWebhookSignature({
      rawBody: input.rawBody,
      header: input.signatureHeader,
      secret,
      toleranceSeconds: input.toleranceSeconds,
    });
    return toolResult(
      check.valid
        ? { valid: true, reason: null, timestamp: check.timestamp }
        : { valid: false, reason: check.reason, timestamp: null },
    );
  },
};

/** Runs one tool; the serving layer turns what it throws into an error result (REST's words). */
export function callLocalTool(tool: ToolDefinition, input: Json, context: ToolContext): Promise<ToolResult> {
  const handler = (handlers as Partial<Record<string, Handler<ToolName>>>)[tool.name];
  if (handler) return handler(input as ToolInput<ToolName>, context);
  if (!tool.contract) throw new Error(`${tool.name} has neither a handler nor a contract`);
  return passThrough(tool.contract, input, context);
}
