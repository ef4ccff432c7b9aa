// `npm run devnet:pay -- <invoice id> [amount]`: pays an invoice on the local devnet from its
// funded account (the remaining amount by default), so the zero-setup demo needs no wallet.
import { createWalletClient, type Hex, http, parseUnits } from "viem";
import { hardhat } from "viem/chains";
import { compileTestUsdc } from "../lib/chains/compile-test-usdc";
import { devnetFunder } from "../lib/chains/devnet";
import { config } from "../lib/config";

const [invoiceId, amountArgument] = process.argv.slice(2);
if (!invoiceId?.startsWith("inv_") || (amountArgument && !/^\d+(\.\d+)?$/.test(amountArgument))) {
  console.error("usage: npm run devnet:pay -- <invoice id (inv_…)> [amount]");
  process.exit(2);
}

const response = await fetch(`${config().baseUrl}/api/public/payments/${invoiceId}`).catch(() => null);
if (!response?.ok) {
  console.error(`No payment ${invoiceId} at ${config().baseUrl} (is \`npm start\` running?)`);
  process.exit(1);
}
const request = (await response.json()) as {
  network: string;
  token: string;
  tokenAddress: string | null;
  depositAddress: string;
  remaining: string;
};
if (request.network !== "devnet" || !request.tokenAddress) {
  console.error(
    `devnet:pay pays devnet tokens only; this invoice wants ${request.token} on ${request.network}.`,
  );
  process.exit(1);
}
const amount = amountArgument ?? request.remaining;
const rpcUrl = `http://127.0.0.1:${process.env.SERVICE_DEVNET_PORT ?? 8545}`;
const wallet = createWalletClient({ account: devnetFunder, chain: hardhat, transport: http(rpcUrl) });
// The test token lets anyone mint: minting to the deposit address is a transfer to it.
const hash = await wallet.writeContract({
  address: request.tokenAddress as Hex,
  abi: compileTestUsdc().abi,
  functionName: "mint",
  args: [request.depositAddress, parseUnits(amount, 6)],
});
console.log(`sent ${amount} ${request.token} to ${request.depositAddress} (tx ${hash})`);
