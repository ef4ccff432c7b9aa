import { getBase58Decoder, getBase64Decoder, type ReadonlyUint8Array } from "@solana/kit";
import { TOKEN_PROGRAM_ADDRESS } from "@solana-program/token";
import { z } from "zod";
import type { LocalSolanaChain } from "./local-solana-chain";
import { commitmentConfig, invalidParams } from "./solana-rpc-params";
import { type ChainAccount, readMint, readTokenAccount, uiTokenAmount } from "./token-amounts";

/** How an account's data is asked for: the RPC's `encoding` and `dataSlice`. */
export const accountConfig = commitmentConfig.extend({
  encoding: z.enum(["base58", "base64", "base64+zstd", "jsonParsed"]).optional(),
  dataSlice: z
    .object({ offset: z.number().int().nonnegative(), length: z.number().int().nonnegative() })
    .optional(),
});
export type AccountConfig = z.infer<typeof accountConfig>;

/** The rent epoch every rent-exempt account reports (u64::MAX). */
const rentExemptEpoch = 18446744073709551615n;

const programNames: Record<string, string> = {
  [TOKEN_PROGRAM_ADDRESS]: "spl-token",
  TokenzQdBNbLqP5VEhdkAS6EPFLC1PHnBqCXEpPxuEb: "spl-token-2022",
};

/** A token account or mint as jsonParsed shows it; null for any other account (shown as base64). */
function parsedData(chain: LocalSolanaChain, account: ChainAccount & { exists: true }) {
  const program = programNames[account.programAddress];
  if (!program) return null;
  const token = readTokenAccount(account);
  if (token) {
    const mint = readMint(chain.account(token.mint));
    if (!mint) return null;
    const info = {
      isNative: token.isNative.__option === "Some",
      mint: token.mint,
      owner: token.owner,
      state: ["uninitialized", "initialized", "frozen"][token.state],
      tokenAmount: uiTokenAmount(token.amount, mint.decimals),
    };
    return { program, parsed: { type: "account", info }, space: account.data.length };
  }
  const mint = readMint(account);
  if (!mint) return null;
  const authority = (option: { __option: "Some"; value: string } | { __option: "None" }) =>
    option.__option === "Some" ? option.value : null;
  const info = {
    decimals: mint.decimals,
    freezeAuthority: authority(mint.freezeAuthority),
    isInitialized: mint.isInitialized,
    mintAuthority: authority(mint.mintAuthority),
    supply: mint.supply.toString(),
  };
  return { program, parsed: { type: "mint", info }, space: account.data.length };
}

function binary(data: ReadonlyUint8Array, encoding: "base58" | "base64", slice: AccountConfig["dataSlice"]) {
  const bytes = slice ? data.slice(slice.offset, slice.offset + slice.length) : data;
  return encoding === "base58" ? getBase58Decoder().decode(bytes) : getBase64Decoder().decode(bytes);
}

/** An account as getAccountInfo answers it, in the encoding asked for (legacy base58 when none is). */
export function encodeAccount(chain: LocalSolanaChain, account: ChainAccount, config: AccountConfig) {
  if (!account.exists) return null;
  const encoding = config.encoding;
  if (encoding === "base64+zstd") throw invalidParams("base64+zstd is not offered by the local chain");
  let data: unknown;
  if (encoding === undefined) data = binary(account.data, "base58", config.dataSlice);
  else if (encoding === "jsonParsed")
    data = parsedData(chain, account) ?? [binary(account.data, "base64", undefined), "base64"];
  else data = [binary(account.data, encoding, config.dataSlice), encoding];
  return {
    data,
    executable: account.executable,
    lamports: BigInt(account.lamports),
    owner: account.programAddress,
    rentEpoch: rentExemptEpoch,
    space: BigInt(account.data.length),
  };
}
