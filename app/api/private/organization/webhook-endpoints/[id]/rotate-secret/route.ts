import { db } from "@/lib/db/client";
import { apiKeyRoute } from "@/lib/http/route";
import { rotateWebhookSecret } from "@/lib/webhooks/rotate-webhook-secret";
import { serializeWebhookEndpoint } from "@/lib/webhooks/serialize-webhook";

export const POST = apiKeyRoute<{ id: string }>("webhooks.manage", async ({ organizationId, params }) => {
  const { endpoint, signingSecret } = await rotateWebhookSecret(db(), organizationId, params.id);
  return {
    body: {
      ...serializeWebhookEndpoint(endpoint),
      signingSecret,
      previousSecretExpiresAt: endpoint.previousSecretExpiresAt?.toISOString() ?? null,
    },
  };
});
