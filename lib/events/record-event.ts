import type { Tx } from "../db/client";
import type { Prisma } from "../generated/prisma/client";
import { newId } from "../ids";
import { fanOutEvent } from "./fan-out-event";

export const eventTypes = [
  "invoice.created",
  "invoice.overdue",
  "payment.confirmed",
  "subscription.overdue",
  "subscription.cancelled",
] as const;
export type EventType = (typeof eventTypes)[number];

/**
 * Records an event inside the caller's transaction, with one webhook delivery per endpoint, so
 * both commit or roll back with the state change that caused them (a transactional outbox). `data` is the event's payload fields (spec 6.3) beyond id, type,
 * createdAt, orgId and livemode, which are filled in here.
 */
export async function recordEvent(
  tx: Tx,
  input: {
    organizationId: string;
    type: EventType;
    invoiceId?: string;
    data: Record<string, Prisma.InputJsonValue | null>;
    livemode?: boolean;
    /** Deliver to this endpoint only (test events); by default every enabled endpoint. */
    endpointId?: string;
  },
) {
  const livemode = input.livemode ?? true;
  const id = newId(livemode ? "event" : "testEvent");
  const createdAt = new Date();
  const payload = {
    id,
    type: input.type,
    createdAt: createdAt.toISOString(),
    orgId: input.organizationId,
    ...(input.invoiceId ? { invoiceId: input.invoiceId } : {}),
    ...input.data,
    livemode,
  };
  const event = await tx.event.create({
    data: {
      id,
      organizationId: input.organizationId,
      type: input.type,
      livemode,
      invoiceId: input.invoiceId,
      payload,
      createdAt,
    },
  });
  await fanOutEvent(tx, event, input.endpointId);
  return event;
}
