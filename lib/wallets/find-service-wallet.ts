import { chainFamilyOf, config } from "../config";
import type { Db } from "../db/client";
import { invalidRequest } from "../errors";

/**
 * What one of the service's own wallets is, as words that complete "… is this service's …".
 * Money sent there reaches the service, not the merchant: a sweep to it would come back as a
 * payment of whichever invoice the address belongs to, or sit where no owner decided.
 */
export type ServiceWalletKind =
  | "deposit address"
  | "receiving wallet"
  | "gas wallet"
  | "fee payer"
  | "facilitator wallet"
  | "refund wallet";

/**
 * Which of the service's own wallets `address` is, among those the database and the configuration
 * know (no key is needed, so the web tier asks it too): invoices' deposit addresses (a Solana
 * network's shared receiving wallet among them), the receiving wallets the networks are configured
 * with, and the wallets the signing role reported (gas wallets, which on Solana are the fee payers, x402 facilitator
 * wallets, every organization's refund wallet); null when none. Every network is searched, not
 * only `networkId`'s: the same key holds an address on every network of its family. Deliberately
 * not scoped to one organization: another's refund wallet or deposit address is no settlement
 * wallet either, and the answer names no organization. The signer adds what it derives
 * (check-sweep-destination.ts).
 */
export async function findServiceWallet(
  database: Db,
  networkId: string,
  address: string,
): Promise<ServiceWalletKind | null> {
  const networks = config().networks;
  const { key } = chainFamilyOf(networkId).addresses;
  // The canonical spelling and the comparison key (EVM: checksummed and lower case) cover how rows store it.
  const spellings = [...new Set([address, key(address)])];
  if (networks.some((candidate) => candidate.receiver && key(candidate.receiver) === key(address)))
    return "receiving wallet";
  const [invoice, gas, facilitator, refund] = await Promise.all([
    database.invoice.findFirst({
      where: {
        network: { in: networks.map((candidate) => candidate.id) },
        depositAddress: { in: spellings },
      },
      select: { reference: true },
    }),
    database.gasWallet.findFirst({ where: { address: { in: spellings } }, select: { network: true } }),
    database.facilitatorWallet.findFirst({
      where: { address: { in: spellings } },
      select: { network: true },
    }),
    database.refundWallet.findFirst({ where: { address: { in: spellings } }, select: { network: true } }),
  ]);
  if (invoice) return invoice.reference ? "receiving wallet" : "deposit address";
  if (gas) return "gas wallet";
  if (facilitator) return "facilitator wallet";
  if (refund) return "refund wallet";
  return null;
}

/**
 * Refuses (400 `address_is_service_wallet`, naming `param`) an address the owner or buyer names as
 * where money goes (a settlement wallet, a refund's destination) when it is one of the service's own
 * wallets: paid there, the money would come back as a payment of whichever invoice the address
 * belongs to, possibly another organization's. The signer checks again before it sends.
 */
export async function refuseServiceWallet(database: Db, networkId: string, address: string, param: string) {
  const own = await findServiceWallet(database, networkId, address);
  if (own)
    throw invalidRequest(
      "address_is_service_wallet",
      `Invalid ${param}: ${address} is this service's own ${own}, not a wallet of yours; funds sent there would come back to the service.`,
      param,
    );
}
