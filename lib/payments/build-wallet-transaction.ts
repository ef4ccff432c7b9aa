import { parseUnits } from "viem";
import { chainFamily } from "../chains/chain-families";
import { findToken } from "../chains/networks";
import { config } from "../config";
import type { Db } from "../db/client";
import { conflict, invalidRequest, notFound, serviceUnavailable } from "../errors";
import { hasIdPrefix } from "../ids";
import { Money } from "../money/decimal";
import type { WalletTransactionInput } from "./payment-schemas";

/** Statuses in which the buyer may still pay the rest (a late payment completes an overdue one). */
const payable = new Set(["AWAITING_PAYMENT", "PARTIALLY_PAID", "OVERDUE"]);

/**
 * The unsigned transaction a Wallet Standard wallet in the buyer's browser signs and sends to pay
 * what is left of an invoice (its network's family builds it: the browser has no node to ask for a
 * recent blockhash). It moves only the buyer's own funds to the invoice's receiver, so it is
 * public like the payment request itself. An invoice on a network whose wallets pay otherwise is
 * unknown here (404).
 */
export async function buildWalletTransaction(database: Db, invoiceId: string, input: WalletTransactionInput) {
  const invoice = hasIdPrefix("invoice", invoiceId)
    ? await database.invoice.findUnique({ where: { id: invoiceId } })
    : null;
  const network = config().networks.find((candidate) => candidate.id === invoice?.network);
  const family = network && chainFamily(network);
  const token = invoice && network ? findToken(network, invoice.token) : undefined;
  if (!invoice || !network || !family?.walletStandard || !token) throw notFound("payment");
  const remaining = new Money(invoice.amountDue.toString()).minus(invoice.amountPaid.toString());
  if (!payable.has(invoice.status) || !remaining.gt(0))
    throw conflict("nothing_to_pay", "This invoice has been paid in full.");
  const parsed = family.addresses.parse(input.account);
  if ("problem" in parsed)
    throw invalidRequest("parameter_invalid", `Invalid account: ${parsed.message}.`, "account");
  try {
    const transaction = await family.walletStandard.transaction(network, {
      account: parsed.address,
      receiver: { address: invoice.depositAddress, reference: invoice.reference },
      token,
      units: parseUnits(remaining.toFixed(), token.decimals),
    });
    return { invoice, transaction, chain: family.walletStandard.chain(network) };
  } catch (error) {
    // The network's node did not answer: the buyer can try again in a moment.
    if (family.isRpcError(error)) throw serviceUnavailable(5);
    throw error;
  }
}
