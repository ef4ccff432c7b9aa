import type { AlongsideWork, Db } from "../db/client";
import type { UpdateOrganizationInput } from "../organizations/organization-schemas";
import { updateOrganization } from "../organizations/update-organization";
import { checkWalletAddress } from "../refunds/check-wallet-address";
import { refuseServiceWallet } from "../wallets/find-service-wallet";
import { requestSettlementChange, type SettlementChangeRequest } from "./request-settlement-change";

/**
 * Refuses a new wallet that is one of the service's own (400 address_is_service_wallet: a deposit
 * or receiving address, a gas or fee payer, facilitator or refund wallet, find-service-wallet.ts),
 * whose funds would come back to the service, and one the chain shows is no wallet (400
 * address_not_wallet: a Solana token account, mint or program; 503 when the node cannot answer),
 * read before any transaction opens; wallets already in force are not read again. The signer
 * checks both again before it pays one (lib/sweeps/check-sweep-destination.ts).
 */
async function checkNewWallets(
  database: Db,
  organizationId: string,
  wallets: { network: string; address: string }[],
) {
  const inForce = await database.settlementWallet.findMany({ where: { organizationId } });
  for (const wallet of wallets) {
    const same = inForce.some((held) => held.network === wallet.network && held.address === wallet.address);
    if (same) continue;
    await refuseServiceWallet(database, wallet.network, wallet.address, "settlementWallets");
    await checkWalletAddress(wallet.network, wallet.address, "settlementWallets");
  }
}

/**
 * PUT /api/private/organization/current and its tool: the settings change at once, a new wallet
 * list becomes settlement changes, proposed or decided as `requester` says (asked only then: a
 * caller who sends no wallets needs no say over them). All or nothing: the settings are written in
 * the settlement change's transaction, after its checks and rate limit, so a refused wallet list
 * (or settings refused in that transaction) leaves both as they were. Returns the organization
 * with its wallets in force and the open changes. `alongside` commits with them (a confirmation's use).
 */
export async function updateOrganizationAndWallets(
  database: Db,
  organizationId: string,
  { settlementWallets, ...settings }: UpdateOrganizationInput,
  requester: () => Omit<SettlementChangeRequest, "wallets">,
  alongside?: AlongsideWork,
) {
  if (!settlementWallets) return updateOrganization(database, organizationId, settings);
  // Refused before anything changes when the caller may not even propose.
  const settlement = requester();
  await checkNewWallets(database, organizationId, settlementWallets);
  return updateOrganization(database, organizationId, settings, (writeSettings) =>
    requestSettlementChange(
      database,
      organizationId,
      { ...settlement, wallets: settlementWallets },
      {
        alongside: async (tx) => {
          await alongside?.(tx);
          await writeSettings(tx);
        },
      },
    ),
  );
}
