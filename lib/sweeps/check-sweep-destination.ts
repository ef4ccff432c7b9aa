import { chainFamily } from "../chains/chain-families";
import { log } from "../log";
import { metrics } from "../metrics/metrics";
import { findServiceWallet, type ServiceWalletKind } from "../wallets/find-service-wallet";
import { type Sweep, type SweepStore, transitionSweep } from "./sweep-transactions";

/**
 * The service's own wallets on the network as the signer derives them from its keys (gas wallet or
 * fee payer, facilitator, receiving wallet, and the organization's refund wallet at its
 * Organization.refundWalletIndex): what the database may not know yet.
 */
export type DerivedServiceWallets = (
  refundWalletIndex: number,
) => { kind: ServiceWalletKind; address: string }[];

/**
 * Why the destination is one of the service's own wallets, or null: derived by the signer, or known
 * to the database (find-service-wallet.ts). Paid there, the funds would come back to the service.
 */
async function serviceWalletRefusal(context: SweepStore, sweep: Sweep, derived: DerivedServiceWallets) {
  const { database, network } = context;
  const { key } = chainFamily(network).addresses;
  const organization = await database.organization.findUniqueOrThrow({
    where: { id: sweep.organizationId },
    select: { refundWalletIndex: true },
  });
  const kind =
    derived(organization.refundWalletIndex).find((own) => key(own.address) === key(sweep.toAddress))?.kind ??
    (await findServiceWallet(database, network.id, sweep.toAddress));
  return kind
    ? `Refused to pay ${sweep.toAddress}: it is this service's own ${kind}, not the organization's; funds sent there would come back to the service.`
    : null;
}

/**
 * The signer's own check, made right before it signs a transfer: the destination must be the
 * organization's wallet in force for the network, read from the database now, and within the
 * operator's pin when there is one. A sweep planned before a change that has since taken effect
 * (applied after the sweep was planned) is re-targeted to the wallet now in force: that change
 * was confirmed and waited out its delay, and the old wallet is exactly what it replaced. Any
 * other destination is refused: the sweep is deferred with the reason, an alert-level log line
 * and a metric, and nothing is sent, as is a destination that is one of the service's own wallets
 * (a wallet in force from before that was refused on request, or a database changed behind the
 * web tier's back). Returns the sweep to sign, or null when deferred.
 */
export async function checkSweepDestination(
  context: SweepStore,
  sweep: Sweep,
  pinned: Record<string, string[]> | undefined,
  derived: DerivedServiceWallets,
): Promise<Sweep | null> {
  const { database, network } = context;
  const inForce = await database.settlementWallet.findUnique({
    where: { organizationId_network: { organizationId: sweep.organizationId, network: network.id } },
  });
  const same = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();
  let target = sweep;
  if (inForce && !same(inForce.address, sweep.toAddress)) {
    const change = await database.settlementChange.findFirst({
      where: {
        organizationId: sweep.organizationId,
        network: network.id,
        status: "APPLIED",
        address: inForce.address,
        updatedAt: { gt: sweep.createdAt },
      },
    });
    if (change) {
      const moved = await database.sweep.updateMany({
        where: {
          id: sweep.id,
          organizationId: sweep.organizationId,
          status: sweep.status,
          toAddress: sweep.toAddress,
        },
        data: { toAddress: inForce.address },
      });
      if (moved.count !== 1) throw new Error(`sweep ${sweep.id} moved on meanwhile`);
      log.warn(
        { sweepId: sweep.id, from: sweep.toAddress, to: inForce.address, settlementChangeId: change.id },
        "sweep re-targeted to the settlement wallet now in force",
      );
      target = { ...sweep, toAddress: inForce.address };
    }
  }
  const refusal = !inForce
    ? ["no_wallet_in_force", `${network.id} has no settlement wallet in force for this organization.`]
    : !same(inForce.address, target.toAddress)
      ? [
          "destination_not_in_force",
          `Refused to pay ${target.toAddress}: the settlement wallet in force on ${network.id} is ${inForce.address}.`,
        ]
      : pinned && !(pinned[network.id] ?? []).some((address) => same(address, target.toAddress))
        ? [
            "destination_not_pinned",
            `Refused to pay ${target.toAddress}: it is not among the operator's SERVICE_SWEEP_DESTINATIONS for ${network.id}.`,
          ]
        : null;
  const own = refusal ? null : await serviceWalletRefusal(context, target, derived);
  if (!refusal && !own) return target;
  const [reason, message] = refusal ?? ["destination_is_service_wallet", own as string];
  if (target.status !== "DEFERRED" || target.failureReason !== message) {
    await transitionSweep(context, target, "defer", { failureReason: message });
    metrics().sweepsDeferred.inc({ reason });
    log.error(
      { alert: true, reason, sweepId: target.id, organizationId: target.organizationId, network: network.id },
      `sweep refused: ${message}`,
    );
  }
  return null;
}
