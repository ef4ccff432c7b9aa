import type { Tx } from "../db/client";
import type { Prisma } from "../generated/prisma/client";
import { newId } from "../ids";

export const eventTypes = [
  "invoice.created",
  "invoice.overdue",
  "payment.confirmed",
  "subscription.overdue",
  "subscription.cancelled",
] as const;
export type EventType = (typeof eventTypes)[number];

/**
 * Records an event inside the caller's transaction, so it commits or rolls back with the state
 * change that caused it. `data` is the event's payload fields (spec 6.3) beyond id, type,
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
  return tx.event.create({
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
}
