import { config } from "../config";
import { openSecret } from "../crypto/secret-box";
import type { Db } from "../db/client";
import { storableText } from "../db/storable-text";
import type { Event, WebhookDelivery, WebhookEndpoint } from "../generated/prisma/client";
import { newId } from "../ids";
import { log } from "../log";
import { metrics } from "../metrics/metrics";
import { guardedFetch, OutboundRequestError } from "../net/guarded-fetch";
import { type AttemptOutcome, afterAttempt, type DeliveryProgress, parseRetryAfter } from "./delivery-state";
import { signatureHeader } from "./signature";
import { webhookPayload } from "./webhook-payload";

const userAgent = "CryptoCheckout-Webhooks/1.0";
/** An attempt's outcome as a metric label: the state it left the delivery in. */
const outcomeLabel = {
  PENDING: "retrying",
  COOLDOWN: "cooldown",
  DELIVERED: "delivered",
  FAILED: "failed",
} as const;
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
  const { timeoutMs, allowPrivateUrls } = config().webhooks;
  try {
    const response = await guardedFetch(url, {
      method: "POST",
      headers,
      body,
      timeoutMs,
      maxBodyBytes: keptResponseBytes,
      allowPrivateAddresses: allowPrivateUrls,
    });
    return {
      outcome: {
        kind: "response",
        status: response.status,
        retryAfterSeconds: parseRetryAfter(response.headers.get("retry-after"), now),
      },
      httpStatus: response.status,
      error: null,
      responseBody: storableText(response.body),
    };
  } catch (error) {
    if (!(error instanceof OutboundRequestError)) throw error;
    // A blocked host is treated like a refused connection: it may be fixed, and rounds end after 72 hours.
    return {
      outcome: { kind: error.reason === "timeout" ? "timeout" : "network_error" },
      httpStatus: null,
      error: error.message,
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

type AttemptRow = { id: string; now: Date; durationMs: number } & Omit<SendResult, "outcome">;

/** One statement records the attempt and moves the delivery on (and releases the claim). */
function recordAttempt(database: Db, deliveryId: string, attempt: AttemptRow, next: DeliveryProgress) {
  return database.$executeRaw`
    WITH attempt AS (
      INSERT INTO "WebhookAttempt" ("id", "deliveryId", "attemptedAt", "durationMs", "httpStatus", "error", "responseBody")
      VALUES (${attempt.id}, ${deliveryId}, ${attempt.now}, ${attempt.durationMs}, ${attempt.httpStatus}, ${attempt.error}, ${attempt.responseBody})
    )
    UPDATE "WebhookDelivery" SET
      "status" = ${next.status}::"WebhookDeliveryStatus", "roundAttempts" = ${next.roundAttempts},
      "roundStartedAt" = ${next.roundStartedAt}, "firstAttemptAt" = ${next.firstAttemptAt},
      "nextAttemptAt" = ${next.nextAttemptAt}, "attemptCount" = "attemptCount" + 1,
      "lockedUntil" = NULL, "updatedAt" = ${new Date()}
    WHERE "id" = ${deliveryId}`;
}

/** The schedule's next step without an attempt row: the last resort when none can be stored. */
function moveOn(database: Db, deliveryId: string, next: DeliveryProgress) {
  return database.webhookDelivery.update({
    where: { id: deliveryId },
    data: {
      status: next.status,
      roundAttempts: next.roundAttempts,
      roundStartedAt: next.roundStartedAt,
      firstAttemptAt: next.firstAttemptAt,
      nextAttemptAt: next.nextAttemptAt,
      attemptCount: { increment: 1 },
      lockedUntil: null,
    },
  });
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

  const attempt = { id: newId("webhookAttempt"), now, durationMs, ...result };
  try {
    await recordAttempt(database, delivery.id, attempt, next);
  } catch (error) {
    // Whatever the attempt row could not hold, the delivery must still move on with its schedule:
    // left claimed, it would be attempted again every claim period, first in line, forever.
    log.error({ deliveryId: delivery.id, err: error }, "webhook attempt could not be recorded in full");
    await recordAttempt(database, delivery.id, { ...attempt, responseBody: null }, next).catch(
      async (again: unknown) => {
        log.error({ deliveryId: delivery.id, err: again }, "webhook attempt could not be recorded");
        await moveOn(database, delivery.id, next);
      },
    );
  }
  metrics().webhookAttempts.inc({ outcome: outcomeLabel[next.status] });
  metrics().webhookAttemptDuration.observe(durationMs / 1000);
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
