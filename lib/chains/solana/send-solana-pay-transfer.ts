import { AccountRole, type Address, type Base64EncodedWireTransaction, type Signature } from "@solana/kit";
import { getTransferCheckedInstruction, TOKEN_PROGRAM_ADDRESS } from "@solana-program/token";
import { associatedTokenAccount } from "./prepare-solana-transaction";
import type { SolanaRpc } from "./read-solana-transfers";
import { localSigner, signLocalTransaction } from "./sign-local-transaction";
import type { SolanaKeyPair } from "./solana-keys";

/** How often a sent transaction's status is asked while waiting, and for how long at most. */
const pollMs = 100;
const waitMs = 30_000;

/**
 * Pays a Solana Pay transfer request as its wallets build it: one TransferChecked of `units` from
 * the payer's associated token account to the recipient wallet's, the references appended as
 * read-only keys of that instruction; the payer pays the fee. Returns the signature once the
 * transaction reached `confirmed`; throws the chain's error when it failed.
 */
export async function sendSolanaPayTransfer(
  rpc: SolanaRpc,
  payment: {
    payer: SolanaKeyPair;
    recipient: string;
    mint: string;
    decimals: number;
    units: bigint;
    references: string[];
  },
): Promise<string> {
  const payer = await localSigner(payment.payer);
  const [source, destination] = await Promise.all([
    associatedTokenAccount(payer.address, payment.mint as Address),
    associatedTokenAccount(payment.recipient as Address, payment.mint as Address),
  ]);
  const transfer = getTransferCheckedInstruction({
    source: source as Address,
    mint: payment.mint as Address,
    destination: destination as Address,
    authority: payer,
    amount: payment.units,
    decimals: payment.decimals,
  });
  const instruction = {
    ...transfer,
    programAddress: TOKEN_PROGRAM_ADDRESS,
    accounts: [
      ...transfer.accounts,
      ...payment.references.map((reference) => ({
        address: reference as Address,
        role: AccountRole.READONLY,
      })),
    ],
  };
  const { value: lifetime } = await rpc.getLatestBlockhash({ commitment: "confirmed" }).send();
  const signed = await signLocalTransaction({ payer, instructions: [instruction], lifetime });
  await rpc.sendTransaction(signed.base64 as Base64EncodedWireTransaction, { encoding: "base64" }).send();
  await waitForConfirmed(rpc, signed.signature);
  return signed.signature;
}

/** Waits until a sent transaction reached `confirmed`; throws the chain's error when it failed. */
export async function waitForConfirmed(rpc: SolanaRpc, signature: string): Promise<void> {
  const deadline = Date.now() + waitMs;
  for (;;) {
    const {
      value: [status],
    } = await rpc.getSignatureStatuses([signature as Signature]).send();
    if (status?.err) throw new Error(`the transaction failed on chain: ${JSON.stringify(status.err)}`);
    if (status?.confirmationStatus === "confirmed" || status?.confirmationStatus === "finalized") return;
    if (Date.now() > deadline) throw new Error("the transaction was not confirmed in time");
    await new Promise((resolve) => setTimeout(resolve, pollMs));
  }
}
