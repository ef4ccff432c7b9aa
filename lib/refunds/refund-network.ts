import { chainFamily } from "../chains/chain-families";
import { clientFor } from "../chains/evm/evm-client";
import type { NetworkConfig } from "../chains/networks";
import type { Db } from "../db/client";
import { advanceRefunds, type RefundWalletKeys } from "./advance-refunds";
import { advanceTransferRefunds } from "./advance-transfer-refunds";
import { reportRefundWallets } from "./report-refund-wallets";
import { reportTransferRefundWallets } from "./report-transfer-refund-wallets";

/**
 * The signer's refund pass over one network, then its refund wallets' report: through the
 * family's service transfers where it has them (Solana: from the service's own wallets, a fee
 * payer paying), else through the signing role's EVM signer (lib/signer/).
 */
export async function refundNetwork(
  database: Db,
  network: NetworkConfig,
  keys: RefundWalletKeys,
  /** The signing role's mnemonic, which service transfers sign with (SERVICE_HD_MNEMONIC). */
  mnemonic: string | undefined,
) {
  if (chainFamily(network).serviceTransfers) {
    if (!mnemonic) throw new Error(`refunds on ${network.id} need SERVICE_HD_MNEMONIC`);
    await advanceTransferRefunds(database, network, { mnemonic });
    await reportTransferRefundWallets(database, network, mnemonic);
    return;
  }
  const client = clientFor(network);
  await advanceRefunds(database, network, client, { keys });
  await reportRefundWallets(database, network, client, keys);
}
