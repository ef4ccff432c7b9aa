import { randomUUID } from "node:crypto";
import type { z } from "zod";
import type { Kit } from "../context";
import * as operations from "../contracts";
import { callApi, downloadApi } from "../http/api-client";

// The merchant REST endpoints the kit calls, authenticated with the stored agent credential or
// SERVICE_API_KEY. Each call is its operation's contract (../contracts): the route, the inputs'
// types and the result's, so a change of a contract shows here as a type error. The kit adds no
// API of its own: it is one more REST client.

type Json = Record<string, unknown>;
type Method = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";
type InputOf<T> = T extends z.ZodObject ? z.input<T> : never;

/** What a call sends: its contract's path parameters, query and body, and headers of its own. */
type Request<C extends operations.Contract> = {
  params?: InputOf<C["input"]["params"]>;
  query?: InputOf<C["input"]["query"]>;
  body?: InputOf<C["input"]["body"]>;
  headers?: Record<string, string>;
};

type Body<C extends operations.Contract> = Request<C>["body"];
/**
 * What the CLI passes on as the user typed it (a flag's text, a JSON file): the service checks it
 * against the operation's own rules and answers a clear error, so the kit does not check it first.
 */
type Unchecked<T> = { [K in keyof T]?: unknown };
const unchecked = <T>(input: unknown) => input as T;

/** Named inputs (a tool's arguments, a command's flags) where the contract takes them: path parameters, query and body. */
export function restInputs(contract: operations.Contract, input: Json) {
  const within = (schema: z.ZodObject | undefined) =>
    schema && Object.fromEntries(Object.entries(input).filter(([name]) => name in schema.shape));
  return {
    params: within(contract.input.params),
    query: within(contract.input.query),
    body: within(contract.input.body),
  };
}

/** One operation over REST: the route its contract names, its answer typed as the contract's result. */
export async function request<C extends operations.Contract>(
  kit: Kit,
  contract: C,
  { params, query, body, headers }: Request<C> = {},
): Promise<z.output<C["result"]>> {
  // The kit's base URL ends in /api, where every contract's path starts.
  const path = contract.path
    .replace(/^\/api/, "")
    .replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(String((params as Json)[name])));
  const answer = await callApi<z.output<C["result"]>>(
    kit.settings.apiBaseUrl,
    contract.method.toUpperCase() as Method,
    path,
    {
      body,
      query: query as Json as Record<string, string | number | undefined>,
      headers,
      token: await kit.token(),
    },
  );
  return answer.body;
}

type Paging = { page?: number; rows?: number };

export const getOrganization = (kit: Kit) => request(kit, operations.retrieveOrganization);

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

/** Changes of the organization: its settings and, as parts of the same route, its wallets and refund settings. */
export const updateOrganization = (kit: Kit, changes: Json) =>
  request(kit, operations.updateOrganization, { body: unchecked(changes) });

export const getPaylink = (kit: Kit, id: string) =>
  request(kit, operations.retrievePaylink, { params: { id } });

export const disablePaylink = (kit: Kit, id: string) =>
  request(kit, operations.disablePaylink, { body: { id, confirm: true } });

export const getSubscription = (kit: Kit, id: string) =>
  request(kit, operations.retrieveSubscription, { params: { id } });

export const cancelSubscription = (kit: Kit, id: string, atPeriodEnd: boolean) =>
  request(kit, operations.cancelSubscription, { params: { id }, body: { atPeriodEnd } });

/** A refund; the Idempotency-Key makes a retried command refund once (a new key per call unless given). */
export async function createRefund(
  kit: Kit,
  refund: Body<typeof operations.createRefund>,
  idempotencyKey?: string,
) {
  const key = idempotencyKey ?? `cc-agent-${randomUUID()}`;
  const created = await request(kit, operations.createRefund, {
    body: refund,
    headers: { "idempotency-key": key },
  });
  return { ...created, idempotencyKey: key };
}

export const listRefunds = (kit: Kit, query: Paging & { invoiceId?: string; status?: string }) =>
  request(kit, operations.listRefunds, { query: unchecked(query) });

export const getRefund = (kit: Kit, id: string) =>
  request(kit, operations.retrieveRefund, { params: { id } });

/** A checkout session; the Idempotency-Key makes a retried command return the same session. */
export async function createCheckoutSession(
  kit: Kit,
  session: Unchecked<Body<typeof operations.createCheckoutSession>>,
  idempotencyKey?: string,
) {
  const key = idempotencyKey ?? `cc-agent-${randomUUID()}`;
  const created = await request(kit, operations.createCheckoutSession, {
    body: unchecked(session),
    headers: { "idempotency-key": key },
  });
  return { ...created, idempotencyKey: key };
}

export const getCheckoutSession = (kit: Kit, id: string) =>
  request(kit, operations.retrieveCheckoutSession, { params: { id } });

/**
 * A payment's status: a checkout session (`ycs_…`, with its payment summary) through the
 * merchant API, or a payment request (`inv_…`) through the public status endpoint.
 */
export async function paymentStatus(kit: Kit, id: string): Promise<Json> {
  if (id.startsWith("inv_")) {
    return (await callApi<Json>(kit.settings.apiBaseUrl, "GET", `/public/payments/${encodeURIComponent(id)}`))
      .body;
  }
  return getCheckoutSession(kit, id);
}

export const listWebhookEndpoints = (kit: Kit) => request(kit, operations.listWebhookEndpoints);

export const createWebhookEndpoint = (kit: Kit, endpoint: Body<typeof operations.createWebhookEndpoint>) =>
  request(kit, operations.createWebhookEndpoint, { body: endpoint });

export const updateWebhookEndpoint = (
  kit: Kit,
  id: string,
  changes: Body<typeof operations.updateWebhookEndpoint>,
) => request(kit, operations.updateWebhookEndpoint, { params: { id }, body: changes });

export const rotateWebhookSecret = (kit: Kit, id: string) =>
  request(kit, operations.rotateWebhookSecret, { params: { id } });

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

/** A page of a report as JSON rows. */
export const reportPage = (
  kit: Kit,
  report: operations.ReportContract,
  query: { from: string; to: string; page?: number; rows?: number },
) => request(kit, report, { query: { ...query, format: "json" } });

/** Where a report is, under the kit's base URL (which ends in /api, where every contract's path starts). */
const reportPath = (report: operations.ReportContract) => report.path.replace(/^\/api/, "");

/** A report's CSV link for the range (it needs the credential as a Bearer token). */
export const reportCsvUrl = (
  kit: Kit,
  report: operations.ReportContract,
  range: { from: string; to: string },
) => `${kit.settings.apiBaseUrl}${reportPath(report)}?${new URLSearchParams({ ...range, format: "csv" })}`;

/** A report of the range as a CSV file, streamed to disk. */
export async function downloadReport(
  kit: Kit,
  report: operations.ReportContract,
  range: { from: string; to: string },
  file: (suggested: string | null) => string,
) {
  return downloadApi(kit.settings.apiBaseUrl, reportPath(report), {
    query: { ...range, format: "csv" },
    token: await kit.token(),
    file,
  });
}
