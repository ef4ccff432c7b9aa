import { sealSecret } from "../crypto/secret-box";
import type { Db } from "../db/client";
import { getWebhookEndpoint } from "./get-webhook-endpoint";
import { generateSigningSecret } from "./signature";

/** How long the previous secret keeps signing alongside the new one, so receivers can switch over. */
export const rotationGraceMs = 24 * 60 * 60 * 1000;

export async function rotateWebhookSecret(
  database: Db,
  organizationId: string,
  id: string,
  now = new Date(),
) {
  const endpoint = await getWebhookEndpoint(database, organizationId, id);
  const signingSecret = generateSigningSecret();
  const updated = await database.webhookEndpoint.update({
    where: { id },
    data: {
      secretCiphertext: sealSecret(signingSecret),
      previousSecretCiphertext: endpoint.secretCiphertext,
      previousSecretExpiresAt: new Date(now.getTime() + rotationGraceMs),
    },
  });
  return { endpoint: updated, signingSecret };
}
