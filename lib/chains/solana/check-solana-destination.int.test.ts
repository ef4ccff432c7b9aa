// Which addresses a token transfer may take as its destination owner, read from the local chain
// over JSON-RPC: wallets (system-owned or no account yet, on the ed25519 curve) and nothing else.
import { type Address, createSolanaRpc, generateKeyPairSigner } from "@solana/kit";
import { SYSTEM_PROGRAM_ADDRESS } from "@solana-program/system";
import { TOKEN_PROGRAM_ADDRESS } from "@solana-program/token";
import { afterAll, beforeAll, expect, it } from "vitest";
import { checkSolanaDestination, type SolanaDestinationCheck } from "./check-solana-destination";
import { localSolanaBuyer } from "./local-solana-accounts";
import { associatedTokenAccount } from "./prepare-solana-transaction";
import { memoV2ProgramAddress } from "./prepare-token-transfer";
import { type LocalSolana, startLocalSolana } from "./start-local-solana";

let local: LocalSolana;
let rpc: ReturnType<typeof createSolanaRpc>;

beforeAll(async () => {
  local = await startLocalSolana({ port: 0 });
  rpc = createSolanaRpc(local.url);
});
afterAll(() => local?.stop());

const buyer = localSolanaBuyer.address as Address;
const freshWallet = async () => (await generateKeyPairSigner()).address;

it.each<[string, SolanaDestinationCheck, () => Promise<string> | string]>([
  ["a wallet holding SOL", "ok", () => buyer],
  ["a new wallet with no account yet", "ok", freshWallet],
  ["a wallet's token account", "token_account", () => associatedTokenAccount(buyer, local.usdcMint)],
  ["the mint", "mint", () => local.usdcMint],
  ["the Token program", "program", () => TOKEN_PROGRAM_ADDRESS],
  ["the Memo program", "program", () => memoV2ProgramAddress],
  ["the System program", "program", () => SYSTEM_PROGRAM_ADDRESS],
  [
    "a sysvar (owned by the Sysvar program)",
    "program_owned",
    () => "SysvarRent111111111111111111111111111111111",
  ],
  [
    "a token account not created yet (a program-derived address)",
    "off_curve",
    async () => associatedTokenAccount(await freshWallet(), local.usdcMint),
  ],
  ["an EVM address", "invalid_address", () => "0x52908400098527886E0F7030069857D2E4169EE7"],
  ["base58 of 31 bytes", "invalid_address", () => "1111111111111111111111111111111"],
  ["not base58", "invalid_address", () => "0OIl0OIl0OIl0OIl0OIl0OIl0OIl0OIl"],
  ["an empty string", "invalid_address", () => ""],
])("checks %s: %s", async (_case, expected, destination) => {
  expect(await checkSolanaDestination(rpc, await destination())).toBe(expected);
});
