import { config } from "../config";
import type { Tx } from "../db/client";
import type { SettlementChange } from "../generated/prisma/client";
import { newId } from "../ids";
import { countWaitingInvoices } from "./count-waiting-invoices";
import { nextSettlementChangeStatus } from "./settlement-change-state";

/** Serialises every change of one organization's wallets (requests, decisions, the sweeper's apply). */
export async function lockSettlement(tx: Tx, organizationId: string) {
  await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtext(${`settlement:${organizationId}`}))`;
}

/**
 * Puts a due SCHEDULED change in force inside the caller's transaction: the settlement wallet the
 * sweeper reads is written (or removed) and the change becomes APPLIED. False when the change
 * moved on meanwhile (cancelled, or applied by another pass).
 */
export async function applySettlementChange(tx: Tx, change: SettlementChange): Promise<boolean> {
  const next = nextSettlementChangeStatus(change.status, "apply");
  if (!next) return false;
  const moved = await tx.settlementChange.updateMany({
    where: { id: change.id, organizationId: change.organizationId, status: change.status },
    data: { status: next },
  });
  if (moved.count !== 1) return false;
  const where = { organizationId: change.organizationId, network: change.network };
  if (change.address === null) {
    await tx.settlementWallet.deleteMany({ where });
  } else {
    await tx.settlementWallet.upsert({
      where: { organizationId_network: where },
      create: { id: newId("settlementWallet"), ...where, address: change.address },
      update: { address: change.address },
    });
  }
  return true;
}

/**
 * When a decided change takes effect: a network's first wallet at once only when an owner decided
 * it and nothing waits to be paid there (countWaitingInvoices: no received value left on deposit
 * addresses, no invoice still open to payment), so there is nothing to divert; any other change,
 * and every change a credential (API key, agent, OAuth app) decided, after
 * SERVICE_SETTLEMENT_CHANGE_DELAY, so every owner has time to see the announcement and cancel it.
 */
export async function effectiveAtFor(
  tx: Tx,
  organizationId: string,
  change: { network: string; previousAddress: string | null },
  decidedByOwner: boolean,
  now: Date,
): Promise<Date> {
  const atOnce =
    decidedByOwner &&
    change.previousAddress === null &&
    (await countWaitingInvoices(tx, organizationId, change.network, now)) === 0;
  return atOnce ? now : new Date(now.getTime() + config().settlementChangeDelayMs);
}
