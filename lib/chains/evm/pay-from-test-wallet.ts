import {
  type Address,
  createPublicClient,
  createWalletClient,
  erc20Abi,
  type Hex,
  http,
  parseEther,
  parseUnits,
} from "viem";
import type { TestWalletPayment } from "../chain-family";
import { devnetTestWallet } from "../devnet-account";
import { mintTestToken } from "../mint-test-token";
import type { NetworkConfig } from "../networks";
import { readEvmBalance } from "./read-evm-balance";

type Client = ReturnType<typeof createPublicClient>;

/**
 * What a top-up leaves the test wallet beyond the payment, in whole tokens and coins: payments made
 * at once (a benchmark) each see enough, rather than racing for the same balance.
 */
const reserve = "1000000";

/**
 * The devnet's test wallet (`devnetTestWallet`) pays with a real transfer and returns its hash
 * once mined. Hardhat's node sends for the impersonated account and assigns its nonces itself, so
 * concurrent payments (several buyers, a benchmark) cannot collide as locally signed ones would.
 */
export async function payFromEvmTestWallet(
  network: NetworkConfig,
  payment: TestWalletPayment,
): Promise<string> {
  const { token, units } = payment;
  const client = createPublicClient({ transport: http(network.rpcUrl), pollingInterval: 100 });
  await client.request({
    method: "hardhat_impersonateAccount" as never,
    params: [devnetTestWallet.address] as never,
  });
  const buyer = createWalletClient({ account: devnetTestWallet.address, transport: http(network.rpcUrl) });
  const to = payment.receiver.address as Hex;
  let txHash: Hex;
  if (token.address) {
    await topUpCoin(client, 0n);
    await topUpToken(network.rpcUrl, client, token.address as Address, units, token.decimals);
    txHash = await buyer.writeContract({
      address: token.address as Address,
      abi: erc20Abi,
      functionName: "transfer",
      args: [to, units],
      chain: null,
    });
  } else {
    await topUpCoin(client, units);
    txHash = await buyer.sendTransaction({ to, value: units, chain: null });
  }
  await client.waitForTransactionReceipt({ hash: txHash });
  return txHash;
}

/** Mints the test wallet what it lacks of a test token to send `units`, and the reserve. */
async function topUpToken(rpcUrl: string, client: Client, token: Address, units: bigint, decimals: number) {
  const held = await readEvmBalance(client, devnetTestWallet.address, token);
  if (held >= units) return;
  const hash = await mintTestToken(
    rpcUrl,
    token,
    devnetTestWallet.address,
    units - held + parseUnits(reserve, decimals),
  );
  await client.waitForTransactionReceipt({ hash });
}

/** Gives the test wallet coin for `units` and the fee, and the reserve, when it holds less. */
async function topUpCoin(client: Client, units: bigint) {
  const held = await client.getBalance({ address: devnetTestWallet.address });
  if (held >= units + parseEther("1")) return;
  const topped = units + parseEther(reserve);
  await client.request({
    method: "hardhat_setBalance" as never,
    params: [devnetTestWallet.address, `0x${topped.toString(16)}`] as never,
  });
}
