import { createPublicClient, createWalletClient, type Hex, http, parseAbi, parseUnits } from "viem";
import { devnetFunder } from "../chains/devnet-account";
import { findToken } from "../chains/networks";
import { config } from "../config";
import type { Db } from "../db/client";
import { conflict, invalidRequest, notFound } from "../errors";
import { hasIdPrefix } from "../ids";
import { Money } from "../money/decimal";
import type { DevnetPayInput } from "./payment-schemas";

// The test token lets anyone mint: minting to the deposit address is a transfer to it. A literal
// ABI, so the app never loads the Solidity compiler.
const testTokenAbi = parseAbi(["function mint(address to, uint256 amount)"]);

/**
 * The devnet's test wallet: pays an invoice from Hardhat's funded account (the remaining amount
 * unless an amount is given) and returns once the transfer is mined. Only invoices on a network
 * flagged `devnet` can be paid so; any other is unknown here, so real invoices cannot be probed.
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

  // Hardhat's node holds the funder's key and assigns nonces itself, so concurrent payments
  // (several buyers, a benchmark) cannot collide as locally signed ones would.
  const wallet = createWalletClient({ account: devnetFunder.address, transport: http(network.rpcUrl) });
  const to = invoice.depositAddress as Hex;
  const txHash = token.address
    ? await wallet.writeContract({
        address: token.address as Hex,
        abi: testTokenAbi,
        functionName: "mint",
        args: [to, units],
        chain: null,
      })
    : await wallet.sendTransaction({ to, value: units, chain: null });
  const client = createPublicClient({ transport: http(network.rpcUrl), pollingInterval: 100 });
  await client.waitForTransactionReceipt({ hash: txHash });
  return { invoice, token, amount: amount.toFixed(token.decimals), txHash };
}
