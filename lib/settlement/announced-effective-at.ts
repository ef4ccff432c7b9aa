import type { SettlementChange } from "../generated/prisma/client";

/** An announcement that went out this soon after its change was made leaves the change's time as it was. */
const onTimeMs = 60_000;

/**
 * When a scheduled change may take effect, by its owners' announcements (their `sentAt`, null
 * while unsent). A change no owner made or confirmed (a credential's) gives the owners the whole
 * delay (`delayMs`, SERVICE_SETTLEMENT_CHANGE_DELAY) from the moment the first of them was told, so a mail outage cannot let a stolen key's
 * wallet take effect unheard of: `"unannounced"` while no owner has been told, a later time when
 * the first announcement went out late, `null` when it may take effect now.
 */
export function announcedEffectiveAt(
  change: Pick<SettlementChange, "proposedByKind" | "decidedByUserId" | "createdAt" | "effectiveAt">,
  sentAts: (Date | null)[],
  delayMs: number,
  now: Date,
): Date | "unannounced" | null {
  if (change.proposedByKind === "owner" || change.decidedByUserId !== null || !change.effectiveAt)
    return null;
  // Changes made before announcements were recorded have none to wait for.
  if (sentAts.length === 0) return null;
  const sent = sentAts.flatMap((sentAt) => (sentAt ? [sentAt.getTime()] : []));
  if (sent.length === 0) return "unannounced";
  const first = Math.min(...sent);
  if (first - change.createdAt.getTime() <= onTimeMs) return null;
  const until = first + delayMs;
  return until > now.getTime() ? new Date(until) : null;
}
