import { createTranslator } from "next-intl";
import { config } from "../config";
import { formatDecimal } from "../i18n/format";
import type { Locale } from "../i18n/locales";
import de from "../i18n/messages/de.json";
import en from "../i18n/messages/en.json";
import es from "../i18n/messages/es.json";
import fr from "../i18n/messages/fr.json";
import ja from "../i18n/messages/ja.json";
import pt from "../i18n/messages/pt.json";
import type { Receipt } from "./read-receipt";
import { receiptLines, type Translate } from "./receipt-lines";

const catalogs = { en, de, fr, es, pt, ja } satisfies Record<Locale, typeof en>;

/** What the email reports: the payment, or one refund of it (the latest). */
export type ReceiptOccasion = { kind: "payment" } | { kind: "refund"; amount: string };

const escapeHtml = (value: string) =>
  value.replace(
    /[&<>"']/g,
    (character) =>
      ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[character] as string,
  );

/**
 * The receipt email in the buyer's language: plain text, and HTML with the merchant's logo and
 * color as the checkout page shows them. Every value is escaped: the merchant's details and order
 * id are theirs to type.
 */
export function composeReceiptEmail(receipt: Receipt, occasion: ReceiptOccasion) {
  const { locale, merchant } = receipt;
  const t = createTranslator({ locale, messages: catalogs[locale] });
  const amount = (value: string) => `${formatDecimal(locale, value)} ${receipt.token}`;
  const subject =
    occasion.kind === "payment"
      ? t("receipt.subject", { merchant: merchant.name })
      : t("receipt.refundSubject", { merchant: merchant.name });
  const intro =
    occasion.kind === "payment"
      ? t("receipt.intro", { merchant: merchant.name })
      : t("receipt.refundIntro", { merchant: merchant.name, amount: amount(occasion.amount) });
  const rows = receiptLines(receipt, t as Translate);
  const support = merchant.supportEmail ? t("receipt.support", { email: merchant.supportEmail }) : null;
  const sentBy = t("receipt.sentBy", { service: config().serviceName, merchant: merchant.name });
  const text = [
    intro,
    "",
    ...rows.map(({ label, value, url }) => `${label}: ${value}${url ? `\n  ${url}` : ""}`),
    "",
    t("receipt.link", { url: receipt.url }),
    ...(support ? ["", support] : []),
    "",
    sentBy,
    "",
  ].join("\n");
  const color = merchant.brandColor ?? "#1d4ed8";
  const cell = "padding:6px 8px 6px 0;border-bottom:1px solid #e2e8f0;vertical-align:top";
  const html = `<!doctype html><html lang="${locale}"><body style="margin:0;background:#f8fafc;font-family:system-ui,sans-serif;color:#0f172a"><div style="height:6px;background:${escapeHtml(color)}"></div><div style="max-width:560px;margin:0 auto;padding:24px">${
    merchant.logoUrl
      ? `<img src="${escapeHtml(merchant.logoUrl)}" alt="" height="40" style="height:40px;display:block;margin-bottom:8px">`
      : ""
  }<h1 style="font-size:20px;margin:0 0 12px">${escapeHtml(merchant.name)}</h1><p>${escapeHtml(intro)}</p><table style="width:100%;border-collapse:collapse;font-size:14px">${rows
    .map(
      ({ label, value, url }) =>
        `<tr><th scope="row" align="left" style="${cell}">${escapeHtml(label)}</th><td style="${cell};word-break:break-all;white-space:pre-line">${
          url ? `<a href="${escapeHtml(url)}">${escapeHtml(value)}</a>` : escapeHtml(value)
        }</td></tr>`,
    )
    .join(
      "",
    )}</table><p style="margin:20px 0"><a href="${escapeHtml(receipt.url)}" style="background:${escapeHtml(color)};color:#fff;padding:10px 16px;border-radius:8px;text-decoration:none;display:inline-block">${escapeHtml(t("receipt.linkLabel"))}</a></p>${
    support ? `<p>${escapeHtml(support)}</p>` : ""
  }<p style="color:#475569;font-size:12px">${escapeHtml(sentBy)}</p></div></body></html>`;
  return { subject, text, html };
}
