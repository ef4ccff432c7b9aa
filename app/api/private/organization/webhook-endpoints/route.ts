import { db } from "@/lib/db/client";
import { readJson } from "@/lib/http/read-json";
import { apiKeyRoute } from "@/lib/http/route";
import { createWebhookEndpoint } from "@/lib/webhooks/create-webhook-endpoint";
import { listWebhookEndpoints } from "@/lib/webhooks/list-webhook-endpoints";
import { serializeWebhookEndpoint } from "@/lib/webhooks/serialize-webhook";
import { createWebhookEndpointSchema } from "@/lib/webhooks/webhook-endpoint-schemas";

export const POST = apiKeyRoute("webhooks.manage", async ({ request, organizationId }) => {
  const { endpoint, signingSecret } = await createWebhookEndpoint(
    db(),
    organizationId,
    await readJson(request, createWebhookEndpointSchema),
  );
  return { status: 201, body: { ...serializeWebhookEndpoint(endpoint), signingSecret } };
});

export const GET = apiKeyRoute("webhooks.read", async ({ organizationId }) => ({
  body: {
    object: "list",
    data: (await listWebhookEndpoints(db(), organizationId)).map(serializeWebhookEndpoint),
  },
}));
