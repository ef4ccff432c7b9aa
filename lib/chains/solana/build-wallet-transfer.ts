import {
  AccountRole,
  type Address,
  appendTransactionMessageInstructions,
  type Blockhash,
  compileTransaction,
  createTransactionMessage,
  getBase64EncodedWireTransaction,
  pipe,
  setTransactionMessageFeePayer,
  setTransactionMessageLifetimeUsingBlockhash,
} from "@solana/kit";
import { getTransferCheckedInstruction, TOKEN_PROGRAM_ADDRESS } from "@solana-program/token";
import type { WalletTransactionRequest } from "../chain-family";
import type { NetworkConfig } from "../networks";
import { solanaMainnetGenesisHash } from "../networks";
import { solanaDevnetGenesisHash } from "./local-solana-accounts";
import { associatedTokenAccount } from "./prepare-solana-transaction";
import type { SolanaRpc } from "./read-solana-transfers";

/** The Wallet Standard chain a network is known by in wallets, from its genesis hash. */
export function walletStandardChain(network: NetworkConfig): string {
  // The local chain answers devnet's genesis hash (for x402's client), but is not devnet.
  if (network.devnet) return "solana:localnet";
  if (network.genesisHash === solanaMainnetGenesisHash) return "solana:mainnet";
  if (network.genesisHash === solanaDevnetGenesisHash) return "solana:devnet";
  return "solana:localnet";
}

/**
 * The transfer a Solana Pay wallet would build for the request, unsigned, for a browser wallet to
 * sign and send: the wallet pays the fee, and its TransferChecked from its own token account into
 * the receiving wallet's carries the invoice's reference as a read-only key.
 */
export async function buildWalletTransfer(
  rpc: SolanaRpc,
  network: NetworkConfig,
  request: WalletTransactionRequest,
): Promise<string> {
  const mint = request.token.address;
  if (!mint) throw new Error(`${request.token.symbol} on ${network.id} has no mint`);
  const [source, destination] = await Promise.all([
    associatedTokenAccount(request.account as Address, mint as Address),
    associatedTokenAccount(request.receiver.address as Address, mint as Address),
  ]);
  const transfer = getTransferCheckedInstruction({
    source: source as Address,
    mint: mint as Address,
    destination: destination as Address,
    authority: request.account as Address,
    amount: request.units,
    decimals: request.token.decimals,
  });
  const references = request.receiver.reference ? [request.receiver.reference] : [];
  const instruction = {
    ...transfer,
    programAddress: TOKEN_PROGRAM_ADDRESS,
    accounts: [
      ...transfer.accounts,
      ...references.map((reference) => ({ address: reference as Address, role: AccountRole.READONLY })),
    ],
  };
  const { value: lifetime } = await rpc.getLatestBlockhash({ commitment: "confirmed" }).send();
  const message = pipe(
    createTransactionMessage({ version: "legacy" }),
    (draft) => setTransactionMessageFeePayer(request.account as Address, draft),
    (draft) =>
      setTransactionMessageLifetimeUsingBlockhash(
        { blockhash: lifetime.blockhash as Blockhash, lastValidBlockHeight: lifetime.lastValidBlockHeight },
        draft,
      ),
    (draft) => appendTransactionMessageInstructions([instruction], draft),
  );
  return getBase64EncodedWireTransaction(compileTransaction(message));
}
