import { parseUnits } from "viem";
import { chainFamily } from "../chains/chain-families";
import { findToken } from "../chains/networks";
import { config } from "../config";
import type { Db } from "../db/client";
import { conflict, invalidRequest, notFound, serviceUnavailable } from "../errors";
import { hasIdPrefix } from "../ids";
import { Money } from "../money/decimal";
import type { DevnetPayInput } from "./payment-schemas";

/**
 * A local chain's test wallet pays an invoice from its own account with a real transfer (as its
 * family's wallets pay: an ERC-20 transfer, a Solana Pay transfer with the reference), the
 * remaining amount unless an amount is given, and returns once it is on chain. The transfer comes
 * from that address, as a buyer's wallet's would, so a refund to the payer goes back to it. Only invoices on a network flagged `devnet` can be paid so; any
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
  // More than any token's supply (Solana's amounts are 64-bit): a mistake, not a payment.
  if (units >= 2n ** 64n)
    throw invalidRequest("parameter_invalid", "Invalid amount: more than a test wallet can send.", "amount");
  const family = chainFamily(network);
  const txHash = await family
    .payFromTestWallet(network, {
      receiver: { address: invoice.depositAddress, reference: invoice.reference },
      token,
      units,
    })
    .catch((error) => {
      // The local chain did not answer (stopped, restarting): try again in a moment.
      throw family.isRpcError(error) ? serviceUnavailable(5) : error;
    });
  return { invoice, token, amount: amount.toFixed(token.decimals), txHash };
}
