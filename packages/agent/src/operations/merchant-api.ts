import { randomUUID } from "node:crypto";
import type { Kit } from "../context";
import { callApi } from "../http/api-client";

// The merchant REST endpoints the kit calls, one function each, authenticated with the stored
// agent credential or SERVICE_API_KEY. The kit adds no API of its own: it is one more REST client.

type Json = Record<string, unknown>;
type Method = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";

async function merchant<T = Json>(
  kit: Kit,
  method: Method,
  path: string,
  options: {
    body?: unknown;
    query?: Record<string, string | number | undefined>;
    headers?: Record<string, string>;
  } = {},
) {
  return (await callApi<T>(kit.settings.apiBaseUrl, method, path, { ...options, token: await kit.token() }))
    .body;
}

const segment = (id: string) => encodeURIComponent(id);

export type Paging = { page?: number; rows?: number };

export const getOrganization = (kit: Kit) => merchant(kit, "GET", "/private/organization/current");

/** Proof of connection: the organization the credential belongs to. */
export async function authStatus(kit: Kit) {
  const config = await kit.readConfig();
  const stored = config.credential?.apiBaseUrl === kit.settings.apiBaseUrl ? config.credential : undefined;
  const organization = await getOrganization(kit);
  return {
    object: "auth_status",
    authenticated: true,
    apiBaseUrl: kit.settings.apiBaseUrl,
    credential: stored
      ? { kind: "agent", id: stored.credentialId, agentName: stored.agentName, access: stored.access }
      : { kind: "api_key", source: "SERVICE_API_KEY" },
    organization: { id: organization.id, name: organization.name },
  };
}

export const updateOrganization = (kit: Kit, changes: Json) =>
  merchant(kit, "PUT", "/private/organization/current", { body: changes });

export const createPaylink = (kit: Kit, paylink: Json) =>
  merchant(kit, "POST", "/private/paylinks/create", { body: paylink });

export const listPaylinks = (kit: Kit, paging: Paging) =>
  merchant(kit, "GET", "/private/paylinks", { query: paging });

export const getPaylink = (kit: Kit, id: string) => merchant(kit, "GET", `/private/paylinks/${segment(id)}`);

export const editPaylink = (kit: Kit, changes: Json & { id: string }) =>
  merchant(kit, "POST", "/private/paylinks/edit", { body: changes });

export const disablePaylink = (kit: Kit, id: string) =>
  merchant(kit, "POST", "/private/paylinks/disable", { body: { id, confirm: true } });

export const listSubscriptions = (kit: Kit, query: Paging & { status?: string; customer?: string }) =>
  merchant(kit, "GET", "/private/subscriptions", { query });

export const getSubscription = (kit: Kit, id: string) =>
  merchant(kit, "GET", `/private/subscriptions/${segment(id)}`);

export const cancelSubscription = (kit: Kit, id: string, atPeriodEnd: boolean) =>
  merchant(kit, "POST", `/private/subscriptions/${segment(id)}/cancel`, { body: { atPeriodEnd } });

/** A refund; the Idempotency-Key makes a retried command refund once (a new key per call unless given). */
export async function createRefund(
  kit: Kit,
  refund: { invoiceId: string; amount?: string; destination: string; reason?: string },
  idempotencyKey?: string,
): Promise<Json & { idempotencyKey: string }> {
  const key = idempotencyKey ?? `cc-agent-${randomUUID()}`;
  const created = await merchant(kit, "POST", "/private/refunds", {
    body: refund,
    headers: { "idempotency-key": key },
  });
  return { ...created, idempotencyKey: key };
}

export const listRefunds = (kit: Kit, query: Paging & { invoiceId?: string; status?: string }) =>
  merchant(kit, "GET", "/private/refunds", { query });

export const getRefund = (kit: Kit, id: string) => merchant(kit, "GET", `/private/refunds/${segment(id)}`);

export const listTransactions = (kit: Kit, paging: Paging) =>
  merchant(kit, "GET", "/private/transactions", { query: paging });

export const listSweeps = (
  kit: Kit,
  query: Paging & { status?: string; network?: string; invoiceId?: string },
) => merchant(kit, "GET", "/private/sweeps", { query });

/** A checkout session; the Idempotency-Key makes a retried command return the same session. */
export async function createCheckoutSession(
  kit: Kit,
  session: Json,
  idempotencyKey?: string,
): Promise<Json & { idempotencyKey: string }> {
  const key = idempotencyKey ?? `cc-agent-${randomUUID()}`;
  const created = await merchant(kit, "POST", "/checkout-sessions", {
    body: session,
    headers: { "idempotency-key": key },
  });
  return { ...created, idempotencyKey: key };
}

export const getCheckoutSession = (kit: Kit, id: string) =>
  merchant(kit, "GET", `/checkout-sessions/${segment(id)}`);

/**
 * A payment's status: a checkout session (`ycs_…`, with its payment summary) through the
 * merchant API, or a payment request (`inv_…`) through the public status endpoint.
 */
export async function paymentStatus(kit: Kit, id: string) {
  if (id.startsWith("inv_")) {
    return (await callApi<Json>(kit.settings.apiBaseUrl, "GET", `/public/payments/${segment(id)}`)).body;
  }
  return getCheckoutSession(kit, id);
}

export const listWebhookEndpoints = (kit: Kit) =>
  merchant<{ data: Json[] }>(kit, "GET", "/private/organization/webhook-endpoints");

export const createWebhookEndpoint = (kit: Kit, endpoint: Json) =>
  merchant<Json & { id: string; signingSecret: string }>(
    kit,
    "POST",
    "/private/organization/webhook-endpoints",
    {
      body: endpoint,
    },
  );

export const updateWebhookEndpoint = (kit: Kit, id: string, changes: Json) =>
  merchant(kit, "PATCH", `/private/organization/webhook-endpoints/${segment(id)}`, { body: changes });

export const rotateWebhookSecret = (kit: Kit, id: string) =>
  merchant<Json & { signingSecret: string }>(
    kit,
    "POST",
    `/private/organization/webhook-endpoints/${segment(id)}/rotate-secret`,
  );

export const sendTestWebhook = (kit: Kit, id: string, type?: string) =>
  merchant(kit, "POST", `/private/organization/webhook-endpoints/${segment(id)}/test`, {
    body: type === undefined ? {} : { type },
  });

export const listWebhookDeliveries = (kit: Kit, id: string, paging: Paging) =>
  merchant(kit, "GET", `/private/organization/webhook-endpoints/${segment(id)}/deliveries`, {
    query: paging,
  });

export const redeliverWebhook = (kit: Kit, id: string, eventId: string) =>
  merchant(kit, "POST", `/private/organization/webhook-endpoints/${segment(id)}/redeliver`, {
    body: { eventId },
  });

/**
 * Points the organization's webhook endpoint at `url`: updates the endpoint this kit configured
 * before (its secret is already stored), else creates one and keeps its signing secret, which
 * the service shows only once, in config.json.
 */
export async function configureWebhook(
  kit: Kit,
  input: { url: string; adapter: "NONE" | "STRIPE"; name?: string },
) {
  const config = await kit.readConfig();
  const known = config.webhook?.apiBaseUrl === kit.settings.apiBaseUrl ? config.webhook : undefined;
  const existing = (await listWebhookEndpoints(kit)).data;
  const target = existing.find((endpoint) => endpoint.id === known?.endpointId);
  if (target && known) {
    const updated = await updateWebhookEndpoint(kit, known.endpointId, {
      url: input.url,
      adapter: input.adapter,
      enabled: true,
      ...(input.name ? { name: input.name } : {}),
    });
    await kit.updateConfig((next) => {
      next.webhook = { ...known, url: input.url, adapter: input.adapter };
    });
    return { action: "updated", endpoint: updated, signingSecretStored: true };
  }
  const created = await createWebhookEndpoint(kit, {
    name: input.name ?? "Agent webhook",
    url: input.url,
    adapter: input.adapter,
    enabled: true,
  });
  const { signingSecret, ...endpoint } = created;
  await kit.updateConfig((next) => {
    next.webhook = {
      endpointId: created.id,
      url: input.url,
      adapter: input.adapter,
      signingSecret,
      apiBaseUrl: kit.settings.apiBaseUrl,
    };
  });
  return { action: "created", endpoint, signingSecretStored: true };
}

export const listEventDeliveries = (kit: Kit, eventId: string, paging: Paging) =>
  merchant(kit, "GET", `/private/events/${segment(eventId)}/deliveries`, { query: paging });
