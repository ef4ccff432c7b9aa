import {
  type Address,
  createWalletClient,
  type Hex,
  http,
  type PublicClient,
  parseAbi,
  parseEther,
  parseUnits,
} from "viem";
import { devnetFunder } from "../chains/devnet-account";
import type { NetworkConfig } from "../chains/networks";
import { log } from "../log";

/** What an empty devnet refund wallet is given: coin for fees, and of each test token. */
export const devnetRefundWalletFunds = { coin: "100", token: "10000" } as const;

// The test token lets anyone mint (lib/payments/pay-invoice-on-devnet.ts); a literal ABI, so the
// signer never loads the Solidity compiler.
const testTokenAbi = parseAbi(["function mint(address to, uint256 amount)"]);

/**
 * On a network flagged `devnet` only: gives a refund wallet that holds no coin the devnet's test
 * funds from Hardhat's funded account, so a merchant signed up on the zero-setup start can refund
 * at once. Anywhere else the merchant funds it (docs/operations.md, "Refund wallet"). Tokens go
 * first and coin last: a wallet with coin counts as funded, so an interrupted top-up is finished
 * on the next pass rather than left without tokens. Returns whether it funded the wallet.
 */
export async function fundDevnetRefundWallet(
  network: NetworkConfig,
  client: PublicClient,
  address: Address,
): Promise<boolean> {
  if (!network.devnet || (await client.getBalance({ address })) > 0n) return false;
  // Hardhat's node holds the funder's key and assigns nonces itself, so top-ups cannot collide
  // with the test wallet's payments as locally signed transactions would.
  const funder = createWalletClient({ account: devnetFunder.address, transport: http(network.rpcUrl) });
  const hashes: Hex[] = [];
  for (const token of network.tokens)
    if (token.address)
      hashes.push(
        await funder.writeContract({
          address: token.address as Address,
          abi: testTokenAbi,
          functionName: "mint",
          args: [address, parseUnits(devnetRefundWalletFunds.token, token.decimals)],
          chain: null,
        }),
      );
  for (const hash of hashes) await client.waitForTransactionReceipt({ hash });
  const coin = await funder.sendTransaction({
    to: address,
    value: parseEther(devnetRefundWalletFunds.coin),
    chain: null,
  });
  await client.waitForTransactionReceipt({ hash: coin });
  log.info({ network: network.id, address }, "devnet refund wallet funded with test funds");
  return true;
}
