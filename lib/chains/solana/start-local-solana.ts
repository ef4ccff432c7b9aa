import type { AddressInfo } from "node:net";
import type { Address } from "@solana/kit";
import { localSolanaBuyer, localTestUsdcDecimals } from "./local-solana-accounts";
import { LocalSolanaChain, type LocalSolanaChainOptions } from "./local-solana-chain";
import {
  airdropLocalSol,
  createLocalTestUsdc,
  mintLocalTestUsdc,
  openLocalTestUsdcAccount,
} from "./local-solana-funds";
import { createSolanaRpcServer } from "./solana-rpc-server";

export type LocalSolana = {
  /** The JSON-RPC URL: http://127.0.0.1:<port>. */
  url: string;
  chain: LocalSolanaChain;
  /** The test USDC mint. */
  usdcMint: Address;
  stop: () => Promise<void>;
};

/** What the test buyer (account #1) holds after every start, in SOL and test USDC. */
export const localSolanaBuyerFunds = { sol: 100n, usdc: 10_000n };
/** The SOL a fee payer holds after every start: thousands of transfers' fees and token account rents. */
export const localFeePayerSol = 100n;

/**
 * Starts the zero-setup Solana chain (network id `solana-local`): a fresh LiteSVM chain with the
 * test USDC mint and a funded test buyer, behind the Solana JSON-RPC on 127.0.0.1:`port` (0: a
 * free port). Nothing is kept between starts, as with the EVM devnet.
 */
export async function startLocalSolana(options: {
  port: number;
  chain?: LocalSolanaChainOptions;
  /** Wallets whose test USDC token accounts exist from the start (the service's receiving wallet). */
  receivers?: string[];
  /** Wallets given localFeePayerSol at start (the service's fee payer, which pays its transfers' fees). */
  feePayers?: string[];
}): Promise<LocalSolana> {
  const chain = new LocalSolanaChain(options.chain);
  const usdcMint = await createLocalTestUsdc(chain);
  for (const receiver of options.receivers ?? []) await openLocalTestUsdcAccount(chain, receiver as Address);
  for (const feePayer of options.feePayers ?? [])
    await airdropLocalSol(chain, feePayer as Address, localFeePayerSol * 1_000_000_000n);
  const buyer = localSolanaBuyer.address as Address;
  await airdropLocalSol(chain, buyer, localSolanaBuyerFunds.sol * 1_000_000_000n);
  await mintLocalTestUsdc(chain, buyer, localSolanaBuyerFunds.usdc * 10n ** BigInt(localTestUsdcDecimals));
  const server = createSolanaRpcServer(chain);
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port, "127.0.0.1", () => {
      server.off("error", reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  let stopped: Promise<void> | undefined;
  return {
    url: `http://127.0.0.1:${port}`,
    chain,
    usdcMint,
    stop: () => {
      stopped ??= new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
      return stopped;
    },
  };
}
