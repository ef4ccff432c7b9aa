import {
  type Address,
  fetchEncodedAccount,
  type GetAccountInfoApi,
  isAddress,
  isOffCurveAddress,
  type Rpc,
} from "@solana/kit";
import { SYSTEM_PROGRAM_ADDRESS } from "@solana-program/system";
import { readMint, readTokenAccount } from "./token-amounts";

/**
 * Why an address cannot receive tokens as a wallet, or "ok". Tokens go to the associated token
 * account of the destination taken as its owner: a token account, mint or program taken as owner
 * gets a token account nobody can sign for, and so does an address off the ed25519 curve (a
 * program-derived address) that holds nothing yet.
 */
export type SolanaDestinationCheck =
  | "ok"
  | "invalid_address"
  | "token_account"
  | "mint"
  | "program"
  | "program_owned"
  | "off_curve";

/**
 * Checks that `destination` is a wallet: base58 of 32 bytes on the ed25519 curve, with either no
 * account yet or an account the System program owns. Reads the account over the RPC.
 */
export async function checkSolanaDestination(
  rpc: Rpc<GetAccountInfoApi>,
  destination: string,
): Promise<SolanaDestinationCheck> {
  if (!isAddress(destination)) return "invalid_address";
  const address = destination as Address;
  const account = await fetchEncodedAccount(rpc, address, { commitment: "confirmed" });
  if (account.exists) {
    if (account.executable) return "program";
    // The specific reasons first: an associated token account is also off the curve.
    if (readTokenAccount(account)) return "token_account";
    if (readMint(account)) return "mint";
    if (account.programAddress !== SYSTEM_PROGRAM_ADDRESS) return "program_owned";
  }
  return isOffCurveAddress(address) ? "off_curve" : "ok";
}
