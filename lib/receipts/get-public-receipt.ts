import type { Db } from "../db/client";
import { notFound } from "../errors";
import { readReceipt } from "./read-receipt";
import { invoiceIdOfReceiptToken } from "./receipt-token";

/**
 * A receipt by its link's token alone, for the buyer's page: a token that is malformed, forged or
 * names no confirmed invoice is the same 404, so nothing tells them apart.
 */
export async function getPublicReceipt(database: Db, token: string) {
  const invoiceId = invoiceIdOfReceiptToken(token);
  const receipt = invoiceId ? await readReceipt(database, invoiceId) : null;
  if (!receipt) throw notFound("receipt", "token");
  return receipt;
}
