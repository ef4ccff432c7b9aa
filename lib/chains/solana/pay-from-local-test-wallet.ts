import type { Address, Base64EncodedWireTransaction } from "@solana/kit";
import {
  findAssociatedTokenPda,
  getCreateAssociatedTokenIdempotentInstruction,
  getMintToCheckedInstruction,
  TOKEN_PROGRAM_ADDRESS,
} from "@solana-program/token";
import type { TestWalletPayment } from "../chain-family";
import type { NetworkConfig } from "../networks";
import { localSolanaFunder, localSolanaMnemonic } from "./local-solana-accounts";
import type { SolanaRpc } from "./read-solana-transfers";
import { sendSolanaPayTransfer, waitForConfirmed } from "./send-solana-pay-transfer";
import { localSigner, signLocalTransaction } from "./sign-local-transaction";
import { solanaWalletKey } from "./solana-keys";

/**
 * The local Solana chain's test wallet (the pay page's "Pay with test wallet"): account #9 of the
 * public test mnemonic (m/44'/501'/9'/0'), as the EVM devnet's test wallet is its account 9, so it
 * is never the printed test buyer and never a service key; public knowledge, local chain only.
 */
export const localSolanaTestWallet = solanaWalletKey(localSolanaMnemonic, 9);

/** What a top-up leaves the test wallet beyond the payment, in whole tokens, and its SOL for fees. */
const reserveTokens = 1_000_000n;
const feeLamports = 1_000_000_000n;

/** Gives the test wallet SOL for fees and, from the test mint's authority (the funder), the token it lacks. */
async function topUp(rpc: SolanaRpc, mint: string, decimals: number, units: bigint) {
  const wallet = localSolanaTestWallet.address as Address;
  const { value: lamports } = await rpc.getBalance(wallet, { commitment: "confirmed" }).send();
  if (lamports < feeLamports)
    await waitForConfirmed(rpc, await rpc.requestAirdrop(wallet, (feeLamports * 10n) as never).send());
  const [account] = await findAssociatedTokenPda({
    owner: wallet,
    mint: mint as Address,
    tokenProgram: TOKEN_PROGRAM_ADDRESS,
  });
  const held = await rpc
    .getTokenAccountBalance(account, { commitment: "confirmed" })
    .send()
    .then(({ value }) => BigInt(value.amount))
    .catch(() => 0n);
  if (held >= units) return;
  const funder = await localSigner(localSolanaFunder);
  const { value: lifetime } = await rpc.getLatestBlockhash({ commitment: "confirmed" }).send();
  const signed = await signLocalTransaction({
    payer: funder,
    lifetime,
    instructions: [
      getCreateAssociatedTokenIdempotentInstruction({
        payer: funder,
        ata: account,
        owner: wallet,
        mint: mint as Address,
      }),
      getMintToCheckedInstruction({
        mint: mint as Address,
        token: account,
        mintAuthority: funder,
        amount: units - held + reserveTokens * 10n ** BigInt(decimals),
        decimals,
      }),
    ],
  });
  await rpc.sendTransaction(signed.base64 as Base64EncodedWireTransaction, { encoding: "base64" }).send();
  await waitForConfirmed(rpc, signed.signature);
}

/** The test wallet pays a Solana Pay transfer request: topped up, then a TransferChecked with the reference. */
export async function payFromLocalTestWallet(
  rpc: SolanaRpc,
  network: NetworkConfig,
  payment: TestWalletPayment,
): Promise<string> {
  const mint = payment.token.address;
  if (!mint) throw new Error(`${payment.token.symbol} on ${network.id} has no mint`);
  await topUp(rpc, mint, payment.token.decimals, payment.units);
  return sendSolanaPayTransfer(rpc, {
    payer: localSolanaTestWallet,
    recipient: payment.receiver.address,
    mint,
    decimals: payment.token.decimals,
    units: payment.units,
    references: payment.receiver.reference ? [payment.receiver.reference] : [],
  });
}
