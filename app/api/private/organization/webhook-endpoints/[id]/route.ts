import { db } from "@/lib/db/client";
import { readJson } from "@/lib/http/read-json";
import { apiKeyRoute } from "@/lib/http/route";
import { deleteWebhookEndpoint } from "@/lib/webhooks/delete-webhook-endpoint";
import { getWebhookEndpoint } from "@/lib/webhooks/get-webhook-endpoint";
import { serializeWebhookEndpoint } from "@/lib/webhooks/serialize-webhook";
import { updateWebhookEndpoint } from "@/lib/webhooks/update-webhook-endpoint";
import { updateWebhookEndpointSchema } from "@/lib/webhooks/webhook-endpoint-schemas";

type Params = { id: string };

export const GET = apiKeyRoute<Params>("webhooks.read", async ({ organizationId, params }) => ({
  body: serializeWebhookEndpoint(await getWebhookEndpoint(db(), organizationId, params.id)),
}));

export const PATCH = apiKeyRoute<Params>("webhooks.manage", async ({ request, organizationId, params }) => ({
  body: serializeWebhookEndpoint(
    await updateWebhookEndpoint(
      db(),
      organizationId,
      params.id,
      await readJson(request, updateWebhookEndpointSchema),
    ),
  ),
}));

export const DELETE = apiKeyRoute<Params>("webhooks.manage", async ({ organizationId, params }) => ({
  body: {
    ...serializeWebhookEndpoint(await deleteWebhookEndpoint(db(), organizationId, params.id)),
    deleted: true,
  },
}));
