import { createHmac, hkdfSync, timingSafeEqual } from "node:crypto";
import { config } from "../config";

// A receipt's link is derived, not stored: the invoice id and HMAC(server key, invoice id), so
// only the service can make one, every receipt email and page shows the same link, and nothing
// needs writing when a payment confirms. The invoice id alone opens nothing.

const tokenPattern = /^(inv_[0-9A-Za-z]{24})\.([A-Za-z0-9_-]{43})$/;

function receiptKey(): Buffer {
  const secretKey = config().secretKey;
  if (!secretKey) throw new Error("SERVICE_SECRET_KEY is not set; receipt links need it");
  return Buffer.from(hkdfSync("sha256", secretKey, "", "buyer-receipt", 32));
}

function macOf(invoiceId: string): string {
  return createHmac("sha256", receiptKey()).update(`receipt:${invoiceId}`).digest("base64url");
}

export function receiptTokenFor(invoiceId: string): string {
  return `${invoiceId}.${macOf(invoiceId)}`;
}

export function receiptUrlFor(invoiceId: string): string {
  return `${config().baseUrl}/receipt/${receiptTokenFor(invoiceId)}`;
}

/**
 * The invoice a receipt token names, or null for anything else: checked by its shape before any
 * key or database is touched (a huge or odd token costs nothing), then its MAC in constant time.
 * Without a server key no receipt link was ever made, so none opens.
 */
export function invoiceIdOfReceiptToken(token: string): string | null {
  const parts = tokenPattern.exec(token);
  if (!parts || !config().secretKey) return null;
  const expected = Buffer.from(macOf(parts[1]));
  const given = Buffer.from(parts[2]);
  return expected.length === given.length && timingSafeEqual(expected, given) ? parts[1] : null;
}
