import type { Tx } from "../db/client";
import { insertRows } from "../db/insert-rows";
import type { Prisma } from "../generated/prisma/client";
import { newId } from "../ids";
import { fanOutEvents } from "./fan-out-event";

export const eventTypes = [
  "invoice.created",
  "invoice.overdue",
  "payment.confirmed",
  "subscription.overdue",
  "subscription.cancelled",
  "refund.created",
  "refund.succeeded",
  "refund.failed",
] as const;
export type EventType = (typeof eventTypes)[number];

type EventInput = {
  organizationId: string;
  type: EventType;
  invoiceId?: string;
  data: Record<string, Prisma.InputJsonValue | null>;
  livemode?: boolean;
  /** Deliver to this endpoint only (test events); by default every enabled endpoint. */
  endpointId?: string;
};

function eventRow(input: EventInput, createdAt: Date) {
  const livemode = input.livemode ?? true;
  const id = newId(livemode ? "event" : "testEvent");
  const payload = {
    id,
    type: input.type,
    createdAt: createdAt.toISOString(),
    orgId: input.organizationId,
    ...(input.invoiceId ? { invoiceId: input.invoiceId } : {}),
    ...input.data,
    livemode,
  };
  return {
    id,
    organizationId: input.organizationId,
    type: input.type,
    livemode,
    invoiceId: input.invoiceId ?? null,
    payload,
    createdAt,
  };
}

/**
 * Records an event inside the caller's transaction, with one webhook delivery per endpoint, so
 * both commit or roll back with the state change that caused them (a transactional outbox). `data`
 * is the event's payload fields (docs/webhooks.md, "Events") beyond id, type, createdAt, orgId
 * and livemode, which are filled in here.
 */
export async function recordEvent(tx: Tx, input: EventInput) {
  const event = await tx.event.create({ data: eventRow(input, new Date()) });
  await fanOutEvents(tx, [event], input.endpointId);
  return event;
}

/** `recordEvent` for many events at once (renewals issued in bulk): two inserts for the lot. */
export async function recordEvents(tx: Tx, inputs: Omit<EventInput, "endpointId">[]) {
  if (inputs.length === 0) return;
  const createdAt = new Date();
  const events = inputs.map((input) => eventRow(input, createdAt));
  await insertRows(tx, "Event", events);
  await fanOutEvents(tx, events);
}
