import { type Address, fetchEncodedAccount } from "@solana/kit";
import type { FeeCoin, ServiceTransfers } from "../chain-family";
import type { NetworkConfig } from "../networks";
import type { SolanaDestinationCheck } from "./check-solana-destination";
import { followTokenTransfer } from "./follow-token-transfer";
import { associatedTokenAccount } from "./prepare-solana-transaction";
import { prepareTokenTransfer, type TransferRefusal } from "./prepare-token-transfer";
import type { SolanaRpc } from "./read-solana-transfers";
import { solanaServiceKey } from "./solana-keys";
import { readTokenAccount } from "./token-amounts";

/** What an address that is no wallet is instead: tokens sent to it as an owner reach nobody. */
/** Solana's native coin, in which every fee is paid (lamports: 10^-9 SOL). */
export const solCoin: FeeCoin = { symbol: "SOL", decimals: 9 };

export const notWallets: Record<Exclude<SolanaDestinationCheck, "ok">, string> = {
  invalid_address: "not a Solana address (base58 of 32 bytes)",
  token_account: "a token account, not a wallet: enter the wallet that owns it",
  mint: "a token mint, not a wallet",
  program: "a program, not a wallet",
  program_owned: "an account a program owns, not a wallet",
  off_curve: "off the ed25519 curve (a program-derived address): no wallet can sign for it",
};

const refusals: Record<TransferRefusal | "no_mint", string> = {
  ...Object.fromEntries(
    Object.entries(notWallets).map(([code, words]) => [code, `the destination is ${words}`]),
  ),
  invalid_amount: "the amount is not 1 to 2^64-1 base units",
  invalid_memo: "the memo is empty or longer than 256 bytes",
  no_mint: "the token has no mint: only SPL tokens are sent",
  no_token_account: "the destination has no token account for this token (closed, or never opened)",
} as Record<TransferRefusal | "no_mint", string>;

/** JSON of a transaction error, whose instruction errors may hold bigints. */
const errorText = (error: unknown) =>
  JSON.stringify(error, (_key, value) => (typeof value === "bigint" ? value.toString() : value));

/**
 * The Solana family's service transfers (chain-family.ts): SPL TransferChecked from one of the
 * service's wallets (solana-keys.ts), the fee payer paying the fee and the destination's token
 * account rent when it has none (prepare-token-transfer.ts), followed and resent by
 * follow-token-transfer.ts at the network's commitment.
 */
export function solanaServiceTransfers(clientOf: (network: NetworkConfig) => SolanaRpc): ServiceTransfers {
  return {
    wallet: (_network, mnemonic, role, index = 0) => solanaServiceKey(mnemonic, role, index).address,
    async sign(network, mnemonic, request) {
      if (!request.token.address) return { state: "refused", code: "no_mint", reason: refusals.no_mint };
      const prepared = await prepareTokenTransfer(clientOf(network), {
        source: solanaServiceKey(mnemonic, request.from.role, request.from.index ?? 0),
        feePayer: solanaServiceKey(mnemonic, "feePayer"),
        mint: request.token.address as Address,
        decimals: request.token.decimals,
        destination: request.to,
        units: request.units,
        memo: request.memo,
        existingAccountOnly: request.existingAccountOnly,
      });
      if (prepared.state === "refused")
        return { state: "refused", code: prepared.reason, reason: refusals[prepared.reason] };
      const { signature, wire, lastValidBlockHeight } = prepared.transaction;
      return {
        state: "signed",
        transfer: {
          id: signature,
          signer: solanaServiceKey(mnemonic, "feePayer").address,
          raw: wire,
          validUntil: lastValidBlockHeight,
        },
      };
    },
    async follow(network, transfer) {
      const progress = await followTokenTransfer(
        clientOf(network),
        { signature: transfer.id, wire: transfer.raw, lastValidBlockHeight: transfer.validUntil },
        network.commitment ?? "finalized",
      );
      switch (progress.state) {
        case "confirmed":
          return { state: "confirmed", position: progress.slot };
        case "failed":
          return { state: "failed", position: progress.slot, reason: errorText(progress.error) };
        default:
          return progress;
      }
    },
    async balance(network, address, token) {
      const rpc = clientOf(network);
      if (!token?.address)
        return (await rpc.getBalance(address as Address, { commitment: "confirmed" }).send()).value;
      const tokenAccount = await associatedTokenAccount(address as Address, token.address as Address);
      const account = await fetchEncodedAccount(rpc, tokenAccount, { commitment: "confirmed" });
      return readTokenAccount(account)?.amount ?? 0n;
    },
    feeCoin: solCoin,
    // Two signatures (fee payer and source) at 5,000 lamports, and a 165-byte token account's rent.
    feeReserve: 2n * 5_000n + 2_039_280n,
  };
}
