import type { Address, Base64EncodedWireTransaction } from "@solana/kit";
import {
  findAssociatedTokenPda,
  getCreateAssociatedTokenIdempotentInstruction,
  getMintToCheckedInstruction,
  TOKEN_PROGRAM_ADDRESS,
} from "@solana-program/token";
import { localSolanaFunder } from "./local-solana-accounts";
import type { SolanaRpc } from "./read-solana-transfers";
import { waitForConfirmed } from "./send-solana-pay-transfer";
import { localSigner, signLocalTransaction } from "./sign-local-transaction";

/** The SOL below which a top-up airdrops more, and how much it airdrops then, in lamports. */
const feeLamports = 1_000_000_000n;

/**
 * On a local chain only (its funder, the test mint's authority, has public keys): gives `wallet`
 * SOL for fees when it has less than 1 SOL and, when it holds less than `units` of the token,
 * mints it what it lacks plus `reserve` (its token account created if missing). Over the
 * JSON-RPC; returns once confirmed, and whether anything was given.
 */
export async function topUpLocalWallet(
  rpc: SolanaRpc,
  wallet: string,
  token: { mint: string; decimals: number; units: bigint; reserve?: bigint },
): Promise<boolean> {
  const owner = wallet as Address;
  const mint = token.mint as Address;
  const [account] = await findAssociatedTokenPda({ owner, mint, tokenProgram: TOKEN_PROGRAM_ADDRESS });
  const held = await rpc
    .getTokenAccountBalance(account, { commitment: "confirmed" })
    .send()
    .then(({ value }) => BigInt(value.amount))
    .catch(() => 0n);
  const given = held < token.units && (await mintLacking(rpc, owner, account, token, held));
  // The coin last: a wallet holding some counts as funded, so an interrupted top-up is finished.
  const { value: lamports } = await rpc.getBalance(owner, { commitment: "confirmed" }).send();
  if (lamports >= feeLamports) return given;
  await waitForConfirmed(rpc, await rpc.requestAirdrop(owner, (feeLamports * 10n) as never).send());
  return true;
}

/** Mints what `owner` lacks of `units` plus the reserve to its token account, created if missing. */
async function mintLacking(
  rpc: SolanaRpc,
  owner: Address,
  account: Address,
  token: { mint: string; decimals: number; units: bigint; reserve?: bigint },
  held: bigint,
) {
  const mint = token.mint as Address;
  const funder = await localSigner(localSolanaFunder);
  const { value: lifetime } = await rpc.getLatestBlockhash({ commitment: "confirmed" }).send();
  const signed = await signLocalTransaction({
    payer: funder,
    lifetime,
    instructions: [
      getCreateAssociatedTokenIdempotentInstruction({ payer: funder, ata: account, owner, mint }),
      getMintToCheckedInstruction({
        mint,
        token: account,
        mintAuthority: funder,
        amount: token.units - held + (token.reserve ?? 0n),
        decimals: token.decimals,
      }),
    ],
  });
  await rpc.sendTransaction(signed.base64 as Base64EncodedWireTransaction, { encoding: "base64" }).send();
  await waitForConfirmed(rpc, signed.signature);
  return true;
}
