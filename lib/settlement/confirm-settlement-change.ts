import type { Db } from "../db/client";
import { notFound } from "../errors";
import { sendOutboundEmailsNow } from "../outbox/deliver-outbound-emails";
import { recordSettlementAnnouncements } from "./announce-settlement-change";
import { applySettlementChange, effectiveAtFor, lockSettlement } from "./apply-settlement-change";
import { decideSettlementChange, type SettlementDecision } from "./decide-settlement-change";

/**
 * An owner confirms a proposal: like the owner's own change, it sets a network's first wallet at
 * once while nothing waits to be paid there, and otherwise takes effect after the delay; older
 * open changes for the network are cancelled. Every owner is told.
 */
export async function confirmSettlementChange(
  database: Db,
  organizationId: string,
  decision: SettlementDecision,
  now = new Date(),
) {
  const { change, announcements } = await database.$transaction(async (tx) => {
    await lockSettlement(tx, organizationId);
    const proposal = await tx.settlementChange.findFirst({ where: { id: decision.id, organizationId } });
    if (!proposal) throw notFound("settlement change", "id");
    // The wallet in force now, which may differ from the one the proposal saw.
    const inForce = await tx.settlementWallet.findFirst({
      where: { organizationId, network: proposal.network },
    });
    const previousAddress = inForce?.address ?? null;
    const confirmed = await decideSettlementChange(tx, organizationId, decision, "confirm", now, {
      previousAddress,
      // The owner confirming decides it, as if they had asked for it.
      effectiveAt: await effectiveAtFor(
        tx,
        organizationId,
        { network: proposal.network, previousAddress },
        true,
        now,
      ),
    });
    await tx.settlementChange.updateMany({
      where: {
        organizationId,
        network: confirmed.network,
        status: { in: ["PROPOSED", "SCHEDULED"] },
        id: { not: confirmed.id },
      },
      data: { status: "CANCELLED", decidedAt: now },
    });
    const decided =
      confirmed.effectiveAt && confirmed.effectiveAt <= now && (await applySettlementChange(tx, confirmed))
        ? { ...confirmed, status: "APPLIED" as const }
        : confirmed;
    return {
      change: decided,
      announcements: await recordSettlementAnnouncements(tx, organizationId, [decided], now),
    };
  });
  await sendOutboundEmailsNow(database, announcements, now);
  return change;
}
