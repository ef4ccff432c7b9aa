import { chainFamily } from "../chains/chain-families";
import type { NetworkConfig } from "../chains/networks";
import type { Db } from "../db/client";
import type { Refund } from "../generated/prisma/client";
import { findServiceWallet } from "../wallets/find-service-wallet";
import type { RefundRefusal } from "./check-refund-destination";

/**
 * The signer's check, right before it signs a refund, that the destination is none of the
 * service's own wallets: the refund wallet paying it (`refundWallet`) or one the database and the
 * configuration know (lib/wallets/find-service-wallet.ts: another invoice's deposit address, a
 * Solana receiving wallet, a gas wallet or fee payer, a facilitator or refund wallet). Paid there,
 * the refund would come back as a payment of that address's invoice, possibly another
 * organization's. Whatever the web tier checked: the address may have become one since, or a
 * payer refund's recorded payer may be one.
 */
export async function checkRefundNotServiceWallet(
  database: Db,
  network: NetworkConfig,
  refund: Pick<Refund, "toAddress">,
  refundWallet: string,
): Promise<RefundRefusal | null> {
  const to = refund.toAddress as string;
  const { key } = chainFamily(network).addresses;
  const kind =
    key(to) === key(refundWallet) ? "refund wallet" : await findServiceWallet(database, network.id, to);
  return kind
    ? {
        reason: "destination_is_service_wallet",
        message: `Refused to pay ${to}: it is this service's own ${kind}; the refund would come back to the service as a payment.`,
      }
    : null;
}
