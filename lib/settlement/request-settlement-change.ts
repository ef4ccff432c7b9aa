import type { Decision } from "../authority/authorize";
import type { AlongsideWork, Db } from "../db/client";
import type { SettlementChange } from "../generated/prisma/client";
import { newId } from "../ids";
import { sendOutboundEmailsNow } from "../outbox/deliver-outbound-emails";
import { consumeRateLimit } from "../rate-limit/rate-limit";
import { recordSettlementAnnouncements } from "./announce-settlement-change";
import { applyDueSettlementChanges } from "./apply-due-settlement-changes";
import { applySettlementChange, effectiveAtFor, lockSettlement } from "./apply-settlement-change";
import type { SettlementChangeStatus } from "./settlement-change-state";

export type ProposedBy = {
  kind: "owner" | "api_key" | "agent" | "oauth";
  /** How people recognise it: the owner's email, the key's, agent's or app's name. */
  name: string;
  id?: string;
};

export type SettlementChangeRequest = {
  /** The full list, as PUT sends it: a network left out loses its wallet. */
  wallets: { network: string; address: string }[];
  /** `propose`: nothing changes until an owner confirms (lib/authority/authorize.ts). */
  decision: Decision;
  proposedBy: ProposedBy;
  clientAddress: string | null;
};

/**
 * Turns a new wallet list into one change per network whose address differs from the wallet in
 * force. A proposal waits for an owner; a decided change is scheduled after the delay, except an
 * owner's first wallet for a network while nothing waits to be paid there, which is applied at
 * once (effectiveAtFor). A credential's change never takes effect before owners heard of it: with
 * no delay configured it becomes a proposal instead, so a stolen API key collects neither what
 * waits on deposit addresses nor what buyers pay next. A request for a network supersedes the
 * older open changes for it, except that a proposal never cancels what was scheduled. Every owner
 * is told of each change. At most 30 requests an hour per organization from credentials, and
 * another 30 from its owners (429 after).
 */
export async function requestSettlementChange(
  database: Db,
  organizationId: string,
  request: SettlementChangeRequest,
  options: { now?: Date; alongside?: AlongsideWork } = {},
): Promise<SettlementChange[]> {
  const now = options.now ?? new Date();
  // Each change emails every owner: a runaway (or hijacked) caller must not bury the one that counts.
  // Owners count apart, so credentials spending the budget cannot lock them out of fixing things.
  await consumeRateLimit(
    "settlementChange",
    request.proposedBy.kind === "owner" ? `${organizationId}:owners` : organizationId,
  );
  await applyDueSettlementChanges(database, now, organizationId);
  const { created, announcements } = await database.$transaction(async (tx) => {
    await options.alongside?.(tx);
    await lockSettlement(tx, organizationId);
    const inForce = new Map(
      (await tx.settlementWallet.findMany({ where: { organizationId } })).map((wallet) => [
        wallet.network,
        wallet.address,
      ]),
    );
    const wanted = new Map(request.wallets.map((wallet) => [wallet.network, wallet.address]));
    const networks = [...new Set([...inForce.keys(), ...wanted.keys()])].sort();
    const byOwner = request.proposedBy.kind === "owner";
    const changes: SettlementChange[] = [];
    for (const network of networks) {
      const previousAddress = inForce.get(network) ?? null;
      const address = wanted.get(network) ?? null;
      if (address === previousAddress) continue;
      let effectiveAt =
        request.decision === "allow"
          ? await effectiveAtFor(tx, organizationId, { network, previousAddress }, byOwner, now)
          : null;
      // No delay configured (the zero-setup start): a credential's change would be in force before
      // any owner heard of it, so an owner confirms it instead.
      if (effectiveAt && effectiveAt <= now && !byOwner) effectiveAt = null;
      const status: SettlementChangeStatus = effectiveAt ? "SCHEDULED" : "PROPOSED";
      const superseded: SettlementChangeStatus[] =
        status === "PROPOSED" ? ["PROPOSED"] : ["PROPOSED", "SCHEDULED"];
      const open = await tx.settlementChange.findMany({
        where: { organizationId, network, status: { in: superseded } },
      });
      // The same request again (a retry) changes nothing and tells nobody twice.
      if (open.some((change) => change.status === status && change.address === address)) continue;
      if (open.length > 0)
        await tx.settlementChange.updateMany({
          where: { organizationId, id: { in: open.map((change) => change.id) }, status: { in: superseded } },
          data: { status: "CANCELLED", decidedAt: now },
        });
      const change = await tx.settlementChange.create({
        data: {
          id: newId("settlementChange"),
          organizationId,
          network,
          address,
          previousAddress,
          status,
          proposedByKind: request.proposedBy.kind,
          proposedByName: request.proposedBy.name,
          proposedById: request.proposedBy.id ?? null,
          clientAddress: request.clientAddress,
          effectiveAt,
          createdAt: now,
        },
      });
      if (change.effectiveAt && change.effectiveAt <= now && (await applySettlementChange(tx, change))) {
        changes.push({ ...change, status: "APPLIED" });
      } else {
        changes.push(change);
      }
    }
    return {
      created: changes,
      announcements: await recordSettlementAnnouncements(tx, organizationId, changes, now),
    };
  });
  await sendOutboundEmailsNow(database, announcements, now);
  return created;
}
