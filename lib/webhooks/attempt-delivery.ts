import { config } from "../config";
import { openSecret } from "../crypto/secret-box";
import type { Db } from "../db/client";
import type { Event, WebhookDelivery, WebhookEndpoint } from "../generated/prisma/client";
import { newId } from "../ids";
import { log } from "../log";
import { type AttemptOutcome, afterAttempt, parseRetryAfter } from "./delivery-state";
import { signatureHeader } from "./signature";
import { resolvesToPublicAddresses } from "./url-guard";
import { webhookPayload } from "./webhook-payload";

const userAgent = "CryptoCheckout-Webhooks/1.0";
const keptResponseBytes = 1024;

type SendResult = {
  outcome: AttemptOutcome;
  httpStatus: number | null;
  error: string | null;
  responseBody: string | null;
};

async function send(
  url: string,
  headers: Record<string, string>,
  body: string,
  now: Date,
): Promise<SendResult> {
  if (!(await resolvesToPublicAddresses(url))) {
    // Treated like a refused connection: the host may be fixed, and rounds end after 72 hours.
    return {
      outcome: { kind: "network_error" },
      httpStatus: null,
      error: "blocked: the host resolves to a private address",
      responseBody: null,
    };
  }
  try {
    const response = await fetch(url, {
      method: "POST",
      headers,
      body,
      redirect: "manual",
      signal: AbortSignal.timeout(config().webhooks.timeoutMs),
    });
    const text = (await response.text().catch(() => "")).slice(0, keptResponseBytes);
    return {
      outcome: {
        kind: "response",
        status: response.status,
        retryAfterSeconds: parseRetryAfter(response.headers.get("retry-after"), now),
      },
      httpStatus: response.status,
      error: null,
      responseBody: text,
    };
  } catch (error) {
    const timedOut = (error as Error).name === "TimeoutError";
    return {
      outcome: { kind: timedOut ? "timeout" : "network_error" },
      httpStatus: null,
      error: timedOut
        ? `timed out after ${config().webhooks.timeoutMs} ms`
        : `connection failed: ${(error as { cause?: { code?: string } }).cause?.code ?? (error as Error).message}`,
      responseBody: null,
    };
  }
}

export type LoadedDelivery = WebhookDelivery & { endpoint: WebhookEndpoint; event: Event };

/** Loads claimed deliveries with their endpoints and events, in one query for the batch. */
export function loadDeliveries(database: Db, ids: string[]): Promise<LoadedDelivery[]> {
  return database.webhookDelivery.findMany({
    where: { id: { in: ids } },
    include: { endpoint: true, event: true },
  });
}

/** The secrets that sign for an endpoint now: its own, and during a rotation's grace the previous one. */
function signingSecrets(endpoint: WebhookEndpoint, now: Date): string[] {
  const secrets = [openSecret(endpoint.secretCiphertext)];
  if (
    endpoint.previousSecretCiphertext &&
    endpoint.previousSecretExpiresAt &&
    endpoint.previousSecretExpiresAt > now
  ) {
    secrets.push(openSecret(endpoint.previousSecretCiphertext));
  }
  return secrets;
}

/** Makes one attempt of a claimed delivery and records it with the next step of its schedule. */
export async function attemptDelivery(database: Db, delivery: LoadedDelivery, now = new Date()) {
  const { endpoint, event } = delivery;
  const body = webhookPayload(event, endpoint.adapter);
  // The signature's timestamp is the real clock: receivers check it against theirs.
  const signature = signatureHeader(signingSecrets(endpoint, now), Math.floor(Date.now() / 1000), body);
  const headers: Record<string, string> = {
    "content-type": "application/json",
    "user-agent": userAgent,
    "x-service-signature": signature,
    "x-service-event-id": event.id,
    ...(endpoint.adapter === "STRIPE" ? { "stripe-signature": signature } : {}),
  };

  const started = performance.now();
  const result = await send(endpoint.url, headers, body, now);
  const durationMs = Math.round(performance.now() - started);
  const next = afterAttempt(delivery, result.outcome, now);

  // One statement records the attempt and moves the delivery on (and releases the claim).
  await database.$executeRaw`
    WITH attempt AS (
      INSERT INTO "WebhookAttempt" ("id", "deliveryId", "attemptedAt", "durationMs", "httpStatus", "error", "responseBody")
      VALUES (${newId("webhookAttempt")}, ${delivery.id}, ${now}, ${durationMs}, ${result.httpStatus}, ${result.error}, ${result.responseBody})
    )
    UPDATE "WebhookDelivery" SET
      "status" = ${next.status}::"WebhookDeliveryStatus", "roundAttempts" = ${next.roundAttempts},
      "roundStartedAt" = ${next.roundStartedAt}, "firstAttemptAt" = ${next.firstAttemptAt},
      "nextAttemptAt" = ${next.nextAttemptAt}, "attemptCount" = "attemptCount" + 1,
      "lockedUntil" = NULL, "updatedAt" = ${new Date()}
    WHERE "id" = ${delivery.id}`;
  if (next.status === "FAILED") {
    log.warn(
      {
        deliveryId: delivery.id,
        endpointId: endpoint.id,
        eventId: event.id,
        organizationId: delivery.organizationId,
        httpStatus: result.httpStatus,
      },
      "webhook delivery failed for good",
    );
  }
  return next;
}
