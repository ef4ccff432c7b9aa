import { z } from "zod";

// Prompts: ready-made tasks a user can start from the client's prompt menu. Each names the tools
// to use in order and the resource with the details, so it works in clients without resources.

export type PromptDefinition = {
  name: string;
  title: string;
  description: string;
  /** Prompt arguments are strings (MCP); optional ones have defaults in the text. */
  argsSchema: Record<string, z.ZodOptional<z.ZodString> | z.ZodString>;
  /** Resource names (see resources.ts) whose text goes along with the prompt. */
  resources: string[];
  text: (args: Record<string, string | undefined>) => string;
};

const optional = (description: string) => z.string().max(500).optional().describe(description);

export const prompts: PromptDefinition[] = [
  {
    name: "integrate_checkout_with_webhooks",
    title: "Add crypto checkout with verified webhooks",
    description:
      "Integrate Crypto Checkout into this codebase: create sessions from the server and fulfil orders on a verified payment.confirmed webhook.",
    argsSchema: {
      framework: optional("The app's framework, e.g. Next.js, Express, Django (default: detect it)"),
      webhookUrl: optional("Public URL the webhook will be served at, if known"),
    },
    resources: ["quickstart", "webhooks"],
    text: (args) =>
      [
        `Integrate Crypto Checkout into this project${args.framework ? ` (${args.framework})` : ""}.`,
        "1. Call service_auth_status to confirm the connection and write access.",
        "2. Server side, add a checkout endpoint that calls POST {base_url}/api/checkout-sessions with the API key from the env var SERVICE_API_KEY (never in code or the browser), an Idempotency-Key per order attempt, the amount as a decimal string and merchantOrderId; redirect the buyer to the returned url.",
        "3. Add a webhook route that verifies X-Service-Signature over the raw body (see the webhooks resource), deduplicates on the event id and marks the order paid only on payment.confirmed.",
        `4. Create the endpoint with service_webhooks_create${args.webhookUrl ? ` for ${args.webhookUrl}` : ""}; put the returned signing secret in SERVICE_WEBHOOK_SECRET (env file, not committed). Tell the user where you stored it.`,
        "5. Call service_webhooks_send_test and check service_webhooks_list_deliveries shows a 2xx; fix the handler until it does.",
        "6. Add a test for the webhook route with a correct and a tampered signature.",
      ].join("\n"),
  },
  {
    name: "create_or_reuse_paylink",
    title: "Create or reuse a paylink",
    description: "Get a shareable payment link with a fixed price, reusing an existing one when it matches.",
    argsSchema: {
      name: z.string().max(255).describe("What the buyer pays for"),
      amount: z.string().max(32).describe('Price as a decimal string, e.g. "25.00"'),
      currency: optional("USD, EUR or GBP (default USD)"),
    },
    resources: ["paylinks"],
    text: (args) =>
      [
        `I need a paylink for "${args.name}" at ${args.amount} ${args.currency ?? "USD"}.`,
        "1. Call service_paylinks_list (page through while hasMore) and look for an enabled paylink with the same name, amount and currency.",
        "2. If one exists, reuse it; if a matching one is disabled, ask me before re-enabling it with service_paylinks_edit (enabled: true).",
        "3. Otherwise create it with service_paylinks_create.",
        "4. Reply with the paylink's url and id, and whether it was reused or created.",
      ].join("\n"),
  },
  {
    name: "webhook_handler_raw_body",
    title: "Write a raw-body webhook handler",
    description: "Write (or fix) the webhook route so it verifies the signature over the raw request body.",
    argsSchema: {
      framework: optional("Framework of the receiving app (default: detect it)"),
      path: optional("Route path, e.g. /api/webhooks/crypto-checkout"),
    },
    resources: ["webhooks"],
    text: (args) =>
      [
        `Write the Crypto Checkout webhook handler${args.path ? ` at ${args.path}` : ""}${args.framework ? ` for ${args.framework}` : ""}.`,
        "- Read the body as raw bytes/text before any JSON parsing (Next.js: request.text(); Express: express.raw on this route; Flask: request.get_data()).",
        "- Verify X-Service-Signature: t=…,v1=… = HMAC-SHA256 of '<t>.<raw body>' keyed with SERVICE_WEBHOOK_SECRET; any v1 may match; |now - t| ≤ 300 s; constant-time comparison. Answer 400 on failure.",
        "- Then parse JSON, deduplicate on the event id (store processed ids), fulfil only on payment.confirmed, answer 2xx quickly.",
        "- Add tests: valid signature, tampered body, stale timestamp, duplicate event.",
        "- Check it end to end with service_webhooks_send_test and service_webhooks_list_deliveries.",
      ].join("\n"),
  },
  {
    name: "verify_payment_flow_devnet",
    title: "Verify the payment flow on the devnet",
    description:
      "Run one payment end to end on the local devnet and check the webhook arrives and the order is fulfilled.",
    argsSchema: {
      amount: optional('Test price, default "1.00"'),
    },
    resources: ["quickstart", "webhooks"],
    text: (args) =>
      [
        "Verify the whole payment flow on the local devnet (a self-hosted server started with `npm start` runs one; no real money).",
        `1. service_checkout_sessions_create with amount "${args.amount ?? "1.00"}" USD, a fresh idempotencyKey and a merchantOrderId.`,
        "2. Open the session url; on the hosted page choose a token and press 'Pay with test wallet' (or run `npm run devnet:pay -- <invoice id>` in the server's repository).",
        "3. Poll service_payments_status every few seconds until paid is true (the devnet confirms within seconds).",
        "4. Check service_webhooks_list_deliveries: the payment.confirmed delivery got a 2xx from the app's handler.",
        "5. Check the app marked the order paid exactly once. Report each step's result.",
      ].join("\n"),
  },
  {
    name: "reuse_stripe_webhook_path",
    title: "Reuse a Stripe-style webhook handler",
    description:
      "Point Crypto Checkout at an existing Stripe webhook handler through the STRIPE adapter, so stripe.webhooks.constructEvent verifies our deliveries.",
    argsSchema: {
      url: optional("Public URL of the existing Stripe webhook route"),
    },
    resources: ["webhooks"],
    text: (args) =>
      [
        "Reuse this project's Stripe-style webhook handler for Crypto Checkout events.",
        "1. Find the existing handler that calls stripe.webhooks.constructEvent (or verifies Stripe-Signature).",
        `2. service_webhooks_create with adapter STRIPE${args.url ? ` and url ${args.url}` : ""}. Store the returned signing secret as SERVICE_WEBHOOK_SECRET and let the handler use it for our events (a separate route or secret if it also receives real Stripe events).`,
        "3. Keep its switch on event.type: a payment arrives as checkout.session.completed (payment_status unpaid), then checkout.session.async_payment_succeeded (fulfil) or checkout.session.async_payment_failed; event.data.object is a Stripe checkout.session (client_reference_id, amount_total in minor units, metadata with our ids). Deduplicate on event.id.",
        "4. service_webhooks_send_test, then service_webhooks_list_deliveries until the delivery shows a 2xx.",
      ].join("\n"),
  },
];
