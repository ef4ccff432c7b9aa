import type { Address, Instruction } from "@solana/kit";
import { getCreateAccountInstruction, getTransferSolInstruction } from "@solana-program/system";
import {
  findAssociatedTokenPda,
  getCreateAssociatedTokenIdempotentInstruction,
  getInitializeMint2Instruction,
  getMintSize,
  getMintToCheckedInstruction,
  TOKEN_PROGRAM_ADDRESS,
} from "@solana-program/token";
import { localSolanaFunder, localTestUsdcDecimals, localTestUsdcMintKey } from "./local-solana-accounts";
import type { LocalSolanaChain } from "./local-solana-chain";
import { localSigner, signLocalTransaction } from "./sign-local-transaction";

// The local chain's faucet and test USDC: real transactions from the funder (account #0), so they
// appear in the chain's history like any other.

/** The test USDC mint's address (the same on every start). */
export const localTestUsdcMint = localTestUsdcMintKey.address as Address;

// One signer instance: kit refuses two distinct signers of one address in a transaction.
let funderSigner: ReturnType<typeof localSigner> | undefined;
const funderOf = () => {
  funderSigner ??= localSigner(localSolanaFunder);
  return funderSigner;
};

/** Signs `instructions` as the funder and executes them; throws unless they succeed. Returns the signature. */
async function fund(chain: LocalSolanaChain, instructions: Instruction[]): Promise<string> {
  const signed = await signLocalTransaction({
    payer: await funderOf(),
    instructions,
    lifetime: chain.latestBlockhash(),
  });
  const outcome = chain.send(signed.wire);
  const err = outcome.included ? outcome.transaction.err : outcome.err;
  if (err !== null) throw new Error(`the local chain refused a funding transaction: ${JSON.stringify(err)}`);
  return signed.signature;
}

/** Sends `lamports` of SOL from the funder to `to` (requestAirdrop). */
export async function airdropLocalSol(
  chain: LocalSolanaChain,
  to: Address,
  lamports: bigint,
): Promise<string> {
  const funder = await funderOf();
  return fund(chain, [getTransferSolInstruction({ source: funder, destination: to, amount: lamports })]);
}

/** Creates the test USDC mint (6 decimals, the funder its mint authority, no freeze authority). */
export async function createLocalTestUsdc(chain: LocalSolanaChain): Promise<Address> {
  const funder = await funderOf();
  const mint = await localSigner(localTestUsdcMintKey);
  const space = BigInt(getMintSize());
  await fund(chain, [
    getCreateAccountInstruction({
      payer: funder,
      newAccount: mint,
      lamports: chain.svm.minimumBalanceForRentExemption(space),
      space,
      programAddress: TOKEN_PROGRAM_ADDRESS,
    }),
    getInitializeMint2Instruction({
      mint: mint.address,
      decimals: localTestUsdcDecimals,
      mintAuthority: funder.address,
    }),
  ]);
  return mint.address;
}

/** Mints `units` of test USDC to `owner`'s associated token account, creating it if missing. */
export async function mintLocalTestUsdc(
  chain: LocalSolanaChain,
  owner: Address,
  units: bigint,
): Promise<{ tokenAccount: Address; signature: string }> {
  const funder = await funderOf();
  const [tokenAccount] = await findAssociatedTokenPda({
    owner,
    mint: localTestUsdcMint,
    tokenProgram: TOKEN_PROGRAM_ADDRESS,
  });
  const signature = await fund(chain, [
    getCreateAssociatedTokenIdempotentInstruction({
      payer: funder,
      ata: tokenAccount,
      owner,
      mint: localTestUsdcMint,
    }),
    getMintToCheckedInstruction({
      mint: localTestUsdcMint,
      token: tokenAccount,
      mintAuthority: funder,
      amount: units,
      decimals: localTestUsdcDecimals,
    }),
  ]);
  return { tokenAccount, signature };
}

/** Opens `owner`'s associated token account of the test USDC (the receiving wallet's, before any buyer pays). */
export async function openLocalTestUsdcAccount(chain: LocalSolanaChain, owner: Address): Promise<Address> {
  const funder = await funderOf();
  const [tokenAccount] = await findAssociatedTokenPda({
    owner,
    mint: localTestUsdcMint,
    tokenProgram: TOKEN_PROGRAM_ADDRESS,
  });
  await fund(chain, [
    getCreateAssociatedTokenIdempotentInstruction({
      payer: funder,
      ata: tokenAccount,
      owner,
      mint: localTestUsdcMint,
    }),
  ]);
  return tokenAccount;
}
