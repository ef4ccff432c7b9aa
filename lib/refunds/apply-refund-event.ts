import type { Tx } from "../db/client";
import { conflict, notFound } from "../errors";
import type { Prisma, Refund } from "../generated/prisma/client";
import { nextRefundStatus, type RefundEvent } from "./refund-state";

/**
 * Locks one of the organization's refunds and moves it by `event` with the pure state machine
 * inside the caller's transaction; 409 `refund_state` with `refusal` when the event does not apply
 * to its status (it moved on meanwhile), 404 for another organization's refund.
 */
export async function applyRefundEvent(
  tx: Tx,
  organizationId: string,
  id: string,
  event: RefundEvent,
  refusal: string,
  data: (refund: Refund) => Prisma.RefundUpdateInput = () => ({}),
): Promise<Refund> {
  const locked = await tx.$queryRaw<{ id: string }[]>`
    SELECT "id" FROM "Refund" WHERE "id" = ${id} AND "organizationId" = ${organizationId} FOR UPDATE`;
  if (locked.length === 0) throw notFound("refund");
  const refund = await tx.refund.findUniqueOrThrow({ where: { id } });
  const next = nextRefundStatus(refund.status, event);
  if (!next) throw conflict("refund_state", refusal);
  return tx.refund.update({ where: { id }, data: { ...data(refund), status: next } });
}
