import { describe, expect, it } from "vitest";
import type { Locale } from "../i18n/locales";
import { composeReceiptEmail } from "./compose-receipt-email";
import type { Receipt } from "./read-receipt";

const receipt = (locale: Locale): Receipt => ({
  invoiceId: "inv_AAAAAAAAAAAAAAAAAAAAAAAA",
  locale,
  customerEmail: "buyer@example.com",
  url: "https://pay.example/receipt/inv_AAAAAAAAAAAAAAAAAAAAAAAA.mac",
  merchant: {
    name: "Acme & Co",
    logoUrl: "https://pay.example/api/public/logos/logo_1",
    brandColor: "#1d4ed8",
    legalName: "Acme GmbH",
    address: "Hauptstr. 1",
    taxId: "DE123456789",
    supportEmail: "help@acme.example",
  },
  merchantOrderId: "order-7",
  paidAt: "2026-03-02T10:15:00.000Z",
  amount: "49.5",
  token: "USDC",
  networkName: "Base",
  price: "49.5",
  currency: "EUR",
  rate: "1.08",
  transactions: [{ hash: `0x${"ab".repeat(32)}`, url: `https://basescan.org/tx/0x${"ab".repeat(32)}` }],
  refunds: [],
  refundedTotal: "0",
});

describe("the receipt email, in every language", () => {
  it.each<[Locale, string, string, string, string]>([
    [
      "en",
      "Your receipt from Acme & Co",
      "Amount: 49.5 USDC",
      "Rate: 1 EUR = 1.08 USDC",
      "March 2, 2026 at 10:15 AM UTC",
    ],
    [
      "de",
      "Ihr Beleg von Acme & Co",
      "Betrag: 49,5 USDC",
      "Kurs: 1 EUR = 1,08 USDC",
      "2. März 2026 um 10:15 UTC",
    ],
    [
      "fr",
      "Votre reçu de Acme & Co",
      "Montant: 49,5 USDC",
      "Taux: 1 EUR = 1,08 USDC",
      "2 mars 2026 à 10:15 UTC",
    ],
    [
      "es",
      "Tu recibo de Acme & Co",
      "Importe: 49,5 USDC",
      "Tipo de cambio: 1 EUR = 1,08 USDC",
      "2 de marzo de 2026 a las 10:15 UTC",
    ],
    [
      "pt",
      "Seu recibo de Acme & Co",
      "Valor: 49,5 USDC",
      "Taxa: 1 EUR = 1,08 USDC",
      "2 de março de 2026 às 10:15 UTC",
    ],
    ["ja", "Acme & Coからの領収書", "金額: 49.5 USDC", "レート: 1 EUR = 1.08 USDC", "2026年3月2日 10:15 UTC"],
  ])("%s", (locale, subject, amount, rate, date) => {
    const email = composeReceiptEmail(receipt(locale), { kind: "payment" });
    expect(email.subject).toBe(subject);
    for (const part of [amount, rate, date, "DE123456789", "help@acme.example", "Acme GmbH\nHauptstr. 1"])
      expect(email.text).toContain(part);
    expect(email.text).toContain(`https://basescan.org/tx/0x${"ab".repeat(32)}`);
    expect(email.text).toContain(receipt(locale).url);
    expect(email.html).toContain(`lang="${locale}"`);
    expect(email.html).toContain("Acme &amp; Co");
    expect(email.html).toContain("background:#1d4ed8");
  });
});
