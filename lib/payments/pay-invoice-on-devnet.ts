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
import { devnetTestWallet } from "../chains/devnet-account";
import { readEvmBalance } from "../chains/evm/read-evm-balance";
import { mintTestToken } from "../chains/mint-test-token";
import { findToken } from "../chains/networks";
import { config } from "../config";
import type { Db } from "../db/client";
import { conflict, invalidRequest, notFound } from "../errors";
import { hasIdPrefix } from "../ids";
import { Money } from "../money/decimal";
import type { DevnetPayInput } from "./payment-schemas";

/**
 * The devnet's test wallet: pays an invoice from its own account (`devnetTestWallet`) with a real
 * transfer, the remaining amount unless an amount is given, and returns once it is mined. The
 * transfer comes from that address, as a buyer's wallet's would, so a refund to the payer goes
 * back to it. Only invoices on a network flagged `devnet` can be paid so; any
 * other is unknown here, so real invoices cannot be probed.
 */
export async function payInvoiceOnDevnet(database: Db, invoiceId: string, input: DevnetPayInput) {
  const invoice = hasIdPrefix("invoice", invoiceId)
    ? await database.invoice.findUnique({ where: { id: invoiceId } })
    : null;
  const network = config().networks.find(
    (candidate) => candidate.id === invoice?.network && candidate.devnet,
  );
  const token = invoice && network ? findToken(network, invoice.token) : undefined;
  if (!invoice || !network || !token) throw notFound("payment");

  const remaining = Money.max(
    new Money(invoice.amountDue.toString()).minus(invoice.amountPaid.toString()),
    0,
  );
  if (input.amount === undefined && remaining.isZero())
    throw conflict("nothing_to_pay", "This invoice has been paid in full; give an amount to send more.");
  const amount = new Money(input.amount ?? remaining);
  if (amount.decimalPlaces() > token.decimals)
    throw invalidRequest(
      "parameter_invalid",
      `Invalid amount: ${token.symbol} has at most ${token.decimals} decimal places.`,
      "amount",
    );
  const units = parseUnits(amount.toFixed(), token.decimals);

  // Hardhat's node sends for the impersonated account and assigns its nonces itself, so
  // concurrent payments (several buyers, a benchmark) cannot collide as locally signed ones would.
  const client = createPublicClient({ transport: http(network.rpcUrl), pollingInterval: 100 });
  await client.request({
    method: "hardhat_impersonateAccount" as never,
    params: [devnetTestWallet.address] as never,
  });
  const buyer = createWalletClient({ account: devnetTestWallet.address, transport: http(network.rpcUrl) });
  const to = invoice.depositAddress as Hex;
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
  return { invoice, token, amount: amount.toFixed(token.decimals), txHash };
}

type Client = ReturnType<typeof createPublicClient>;

/**
 * What a top-up leaves the test wallet beyond the payment, in whole tokens and coins: payments made
 * at once (a benchmark) each see enough, rather than racing for the same balance.
 */
const reserve = "1000000";

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
