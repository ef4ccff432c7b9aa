import {
  type Address,
  createWalletClient,
  type Hex,
  http,
  type PublicClient,
  parseEther,
  parseUnits,
} from "viem";
import { log } from "../log";
import { devnetFunder } from "./devnet-account";
import { mintTestToken } from "./mint-test-token";
import type { NetworkConfig } from "./networks";

/** What an empty devnet wallet is given: coin for fees and, when set, that much of each test token. */
export type DevnetWalletFunds = { coin: string; token?: string };

/**
 * On a network flagged `devnet` only: gives a wallet that holds no coin the devnet's test funds
 * from Hardhat's funded account. Tokens go first and coin last: a wallet with coin counts as
 * funded, so an interrupted top-up is finished on the next pass rather than left without tokens.
 * `purpose` names the wallet in the log. Returns whether it funded the wallet.
 */
export async function fundDevnetWallet(
  network: NetworkConfig,
  client: PublicClient,
  address: Address,
  funds: DevnetWalletFunds,
  purpose: string,
): Promise<boolean> {
  if (!network.devnet || (await client.getBalance({ address })) > 0n) return false;
  // Hardhat's node holds the funder's key and assigns nonces itself, so top-ups cannot collide
  // with the test wallet's payments as locally signed transactions would.
  const funder = createWalletClient({ account: devnetFunder.address, transport: http(network.rpcUrl) });
  const hashes: Hex[] = [];
  if (funds.token !== undefined)
    for (const token of network.tokens)
      if (token.address)
        hashes.push(
          await mintTestToken(
            network.rpcUrl,
            token.address as Address,
            address,
            parseUnits(funds.token, token.decimals),
          ),
        );
  // Looked for each 100 ms, not each 4 s (viem's default): a devnet may mine on an interval only.
  for (const hash of hashes) await client.waitForTransactionReceipt({ hash, pollingInterval: 100 });
  const coin = await funder.sendTransaction({ to: address, value: parseEther(funds.coin), chain: null });
  await client.waitForTransactionReceipt({ hash: coin, pollingInterval: 100 });
  log.info({ network: network.id, address, purpose }, "devnet wallet funded with test funds");
  return true;
}
