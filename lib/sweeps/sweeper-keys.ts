import { HDKey } from "@scure/bip32";
import { bytesToHex, type Hex } from "viem";
import { type PrivateKeyAccount, privateKeyToAccount } from "viem/accounts";
import { depositAccountPath } from "../chains/evm/derive-deposit-address";
import { mnemonicSeed } from "../chains/mnemonic-seed";

// The sweeper's keys, all from the one mnemonic that only the sweeper holds (the web tier derives
// deposit addresses from the account xpub). Deposit addresses sign their own sweep; the gas
// wallet, which tops ERC-20 deposit addresses up with the coin that pays their fee, lives on an
// account of its own (m/44'/60'/1'), one address per chain id, so it never collides with a
// deposit index and an operator can fund each network separately. Refund wallets, which pay
// refunds (lib/refunds/advance-refunds.ts) from funds the merchant puts there, live on the next
// account (m/44'/60'/2'): one chain per organization (its refundWalletIndex), one address per chain
// id on it, so refunds never spend the gas wallet's coin, a deposit, or another merchant's funds.
// The x402 facilitator wallet (m/44'/60'/3', one address per chain id) pays the gas of the
// EIP-3009 transfers it submits for x402 payers (lib/x402/), with nonces of its own apart from the
// gas wallet's database-allocated ones.

/** The account whose external chain holds one gas wallet per chain id. */
export const gasWalletAccountPath = "m/44'/60'/1'";
/** The account with one chain per organization, each holding one refund wallet per chain id. */
export const refundWalletAccountPath = "m/44'/60'/2'";
/** The account whose external chain holds one x402 facilitator wallet per chain id. */
export const facilitatorWalletAccountPath = "m/44'/60'/3'";

export type SweeperKeys = {
  /** The signing account of the deposit address at a BIP32 index. */
  deposit: (index: number) => PrivateKeyAccount;
  /** The gas wallet of a chain. */
  gasWallet: (chainId: number) => PrivateKeyAccount;
  /** An organization's refund wallet on a chain (its Organization.refundWalletIndex). */
  refundWallet: (organizationIndex: number, chainId: number) => PrivateKeyAccount;
  /** The x402 facilitator wallet of a chain. */
  facilitatorWallet: (chainId: number) => PrivateKeyAccount;
};

function accountAt(key: HDKey): PrivateKeyAccount {
  if (!key.privateKey) throw new Error("the sweeper needs private keys (SERVICE_HD_MNEMONIC)");
  return privateKeyToAccount(bytesToHex(key.privateKey) as Hex);
}

export function sweeperKeysFromMnemonic(mnemonic: string): SweeperKeys {
  const master = HDKey.fromMasterSeed(mnemonicSeed(mnemonic));
  const depositChain = master.derive(`${depositAccountPath}/0`);
  const gasChain = master.derive(`${gasWalletAccountPath}/0`);
  const refundAccount = master.derive(refundWalletAccountPath);
  const facilitatorChain = master.derive(`${facilitatorWalletAccountPath}/0`);
  // Chain ids above 2^31 - 1 would be hardened indexes; folded into the non-hardened range.
  const perChain = (chainId: number) => chainId % 2 ** 31;
  return {
    deposit: (index) => accountAt(depositChain.deriveChild(index)),
    gasWallet: (chainId) => accountAt(gasChain.deriveChild(perChain(chainId))),
    facilitatorWallet: (chainId) => accountAt(facilitatorChain.deriveChild(perChain(chainId))),
    refundWallet: (organizationIndex, chainId) => {
      if (!Number.isInteger(organizationIndex) || organizationIndex < 0 || organizationIndex >= 2 ** 31)
        throw new Error(`refund wallet index ${organizationIndex} is not a non-hardened BIP32 index`);
      return accountAt(refundAccount.deriveChild(organizationIndex).deriveChild(perChain(chainId)));
    },
  };
}
