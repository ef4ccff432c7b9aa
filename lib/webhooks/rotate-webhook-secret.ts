import { sealSecret } from "../crypto/secret-box";
import type { AlongsideWork, Db } from "../db/client";
import { conflict } from "../errors";
import { getWebhookEndpoint } from "./get-webhook-endpoint";
import { generateSigningSecret } from "./signature";

/** How long the previous secret keeps signing alongside the new one, so receivers can switch over. */
export const rotationGraceMs = 24 * 60 * 60 * 1000;

/**
 * Replaces the signing secret; the one it replaces keeps signing for the grace period. The update
 * applies only if the secret is still the one read (every sealing is unique), so of two
 * concurrent rotations one wins and the other gets a conflict: no secret shown to a caller is
 * ever silently dropped.
 */
export async function rotateWebhookSecret(
  database: Db,
  organizationId: string,
  id: string,
  options: { now?: Date; alongside?: AlongsideWork } = {},
) {
  const now = options.now ?? new Date();
  const endpoint = await getWebhookEndpoint(database, organizationId, id);
  const signingSecret = generateSigningSecret();
  const data = {
    secretCiphertext: sealSecret(signingSecret),
    previousSecretCiphertext: endpoint.secretCiphertext,
    previousSecretExpiresAt: new Date(now.getTime() + rotationGraceMs),
    updatedAt: now,
  };
  await database.$transaction(async (tx) => {
    await options.alongside?.(tx);
    const { count } = await tx.webhookEndpoint.updateMany({
      where: { id, organizationId, secretCiphertext: endpoint.secretCiphertext },
      data,
    });
    if (count === 0) {
      throw conflict(
        "concurrent_rotation",
        "The signing secret was rotated by another request at the same time. Reload to see the current one.",
      );
    }
  });
  return { endpoint: { ...endpoint, ...data }, signingSecret };
}
