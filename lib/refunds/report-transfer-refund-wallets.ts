import type { NetworkConfig } from "../chains/networks";
import type { Db } from "../db/client";
import { log } from "../log";
import { serviceTransfersOf } from "../signer/sign-service-transfer";
import { refundWalletsToReport, saveRefundWallet } from "./report-refund-wallets";

/**
 * reportRefundWallets for a network whose family sends from the service's own wallets
 * (ChainFamily.serviceTransfers: Solana): the same organizations, each refund wallet's address
 * (the signing role's key at its refundWalletIndex) and balances in the family's coin and each
 * token. The fee payer pays the refunds' fees, so a refund wallet needs no coin: it is low only
 * when it holds less of a token than its pending refunds need.
 */
export async function reportTransferRefundWallets(
  database: Db,
  network: NetworkConfig,
  mnemonic: string,
  now = new Date(),
) {
  const transfers = serviceTransfersOf(network);
  const { organizations, queuedOf } = await refundWalletsToReport(database, network);
  for (const organization of organizations) {
    const address = transfers.wallet(network, mnemonic, "refund", organization.refundWalletIndex);
    try {
      const tokens: Record<string, bigint> = {};
      for (const token of network.tokens)
        if (token.address) tokens[token.symbol] = await transfers.balance(network, address, token);
      await saveRefundWallet(database, network, {
        organizationId: organization.id,
        address,
        coin: await transfers.balance(network, address),
        coinDecimals: transfers.feeCoin.decimals,
        tokens,
        queued: queuedOf(organization.id),
        coinNeeded: 0n,
        now,
      });
    } catch (error) {
      log.warn(
        { err: error, organizationId: organization.id, network: network.id },
        "refund wallet report failed",
      );
    }
  }
}
