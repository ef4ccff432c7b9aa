import { sealSecret } from "../crypto/secret-box";
import type { Db, Tx } from "../db/client";
import { newId } from "../ids";
import { generateSigningSecret } from "./signature";
import type { CreateWebhookEndpointInput } from "./webhook-endpoint-schemas";

/** Creates an endpoint with a fresh signing secret, returned here and never again. */
export async function createWebhookEndpoint(
  database: Db | Tx,
  organizationId: string,
  input: CreateWebhookEndpointInput & { isDefault?: boolean },
) {
  const signingSecret = generateSigningSecret();
  const endpoint = await database.webhookEndpoint.create({
    data: {
      id: newId("webhookEndpoint"),
      organizationId,
      ...input,
      secretCiphertext: sealSecret(signingSecret),
    },
  });
  return { endpoint, signingSecret };
}
