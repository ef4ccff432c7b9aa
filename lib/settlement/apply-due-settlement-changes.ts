import { config } from "../config";
import type { Db } from "../db/client";
import { log } from "../log";
import { settlementAnnouncementKind } from "./announce-settlement-change";
import { announcedEffectiveAt } from "./announced-effective-at";
import { applySettlementChange, lockSettlement } from "./apply-settlement-change";

/**
 * Puts every SCHEDULED change whose time has come in force, each in its own transaction with the
 * wallet it writes. The sweeper calls it before planning, so a sweep goes to the wallet that is
 * in force at that moment; `organizationId` limits it to one organization (a new request first
 * settles what is due). A credential's change waits until its owners have been told, and then
 * for its whole delay (announced-effective-at.ts). Returns how many were applied.
 */
export async function applyDueSettlementChanges(database: Db, now: Date, organizationId?: string) {
  const due = await database.settlementChange.findMany({
    where: { status: "SCHEDULED", effectiveAt: { lte: now }, ...(organizationId ? { organizationId } : {}) },
    orderBy: { effectiveAt: "asc" },
  });
  const announcements = await database.outboundEmail.findMany({
    where: { kind: settlementAnnouncementKind, aboutId: { in: due.map((change) => change.id) } },
    select: { aboutId: true, sentAt: true },
  });
  let applied = 0;
  for (const change of due) {
    const held = announcedEffectiveAt(
      change,
      announcements
        .filter((announcement) => announcement.aboutId === change.id)
        .map((announcement) => announcement.sentAt),
      config().settlementChangeDelayMs,
      now,
    );
    const about = {
      organizationId: change.organizationId,
      network: change.network,
      settlementChangeId: change.id,
    };
    if (held === "unannounced") {
      log.warn(
        { ...about, alert: true },
        "a settlement wallet change waits: no owner has been told of it yet",
      );
      continue;
    }
    if (held) {
      await database.settlementChange.updateMany({
        where: { id: change.id, organizationId: change.organizationId, status: "SCHEDULED" },
        data: { effectiveAt: held },
      });
      log.warn(
        { ...about, effectiveAt: held.toISOString() },
        "a settlement wallet change was announced late: it waits its delay from then",
      );
      continue;
    }
    const done = await database.$transaction(async (tx) => {
      await lockSettlement(tx, change.organizationId);
      return applySettlementChange(tx, change);
    });
    if (done) {
      applied++;
      log.info(about, "settlement wallet change took effect");
    }
  }
  return applied;
}
