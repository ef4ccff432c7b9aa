import type { TestWalletPayment } from "../chain-family";
import type { NetworkConfig } from "../networks";
import { localSolanaMnemonic } from "./local-solana-accounts";
import type { SolanaRpc } from "./read-solana-transfers";
import { sendSolanaPayTransfer } from "./send-solana-pay-transfer";
import { solanaWalletKey } from "./solana-keys";
import { topUpLocalWallet } from "./top-up-local-wallet";

/**
 * The local Solana chain's test wallet (the pay page's "Pay with test wallet"): account #9 of the
 * public test mnemonic (m/44'/501'/9'/0'), as the EVM devnet's test wallet is its account 9, so it
 * is never the printed test buyer and never a service key; public knowledge, local chain only.
 */
export const localSolanaTestWallet = solanaWalletKey(localSolanaMnemonic, 9);

/** What a top-up leaves the test wallet beyond the payment, in whole tokens. */
const reserveTokens = 1_000_000n;

/** The test wallet pays a Solana Pay transfer request: topped up, then a TransferChecked with the reference. */
export async function payFromLocalTestWallet(
  rpc: SolanaRpc,
  network: NetworkConfig,
  payment: TestWalletPayment,
): Promise<string> {
  const mint = payment.token.address;
  if (!mint) throw new Error(`${payment.token.symbol} on ${network.id} has no mint`);
  await topUpLocalWallet(rpc, localSolanaTestWallet.address, {
    mint,
    decimals: payment.token.decimals,
    units: payment.units,
    reserve: reserveTokens * 10n ** BigInt(payment.token.decimals),
  });
  return sendSolanaPayTransfer(rpc, {
    payer: localSolanaTestWallet,
    recipient: payment.receiver.address,
    mint,
    decimals: payment.token.decimals,
    units: payment.units,
    references: payment.receiver.reference ? [payment.receiver.reference] : [],
  });
}
