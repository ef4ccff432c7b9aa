import { describe, expect, it } from "vitest";
import { formatCsvCell, formatCsvHeader, formatCsvRow } from "./format-csv-row";
import { paymentReportColumns } from "./read-payment-report";
import { refundReportColumns } from "./read-refund-report";

describe("formatCsvCell", () => {
  it.each([
    ["plain text", "order-1001", "order-1001"],
    ["null is an empty cell", null, ""],
    ["empty stays empty", "", ""],
    ["a comma is quoted", "a,b", '"a,b"'],
    ["a quote is doubled and quoted", 'say "hi"', '"say ""hi"""'],
    ["a line feed is quoted", "two\nlines", '"two\nlines"'],
    ["CRLF inside is quoted", "two\r\nlines", '"two\r\nlines"'],
    ["= starts a formula", "=1+1", "'=1+1"],
    ["+ starts a formula", "+1", "'+1"],
    ["- starts a formula", "-1", "'-1"],
    ["@ starts a formula", "@SUM(A1)", "'@SUM(A1)"],
    ["a leading tab is neutralised and quoted", "\tx", '"\'\tx"'],
    [
      "a formula after a semicolon (a semicolon-locale cell)",
      "x;=cmd|' /C calc'!A0",
      `"x;'=cmd|' /C calc'!A0"`,
    ],
    ["a formula after a semicolon and spaces", "Damaged; +1", `"Damaged; '+1"`],
    ["a formula after a tab", "a\t@SUM(A1)", `"a\t'@SUM(A1)"`],
    ["a full-width equals sign starts a formula", "\uff1d1+1", "'\uff1d1+1"],
    ["a full-width plus after a semicolon", "a;\uff0b1", `"a;'\uff0b1"`],
    ["a semicolon alone is quoted", "a;b", '"a;b"'],
    ["a leading CR is neutralised and quoted", "\rx", '"\'\rx"'],
    [
      "a formula with a comma is neutralised, then quoted",
      '=HYPERLINK("http://x","y")',
      '"\'=HYPERLINK(""http://x"",""y"")"',
    ],
    ["= inside is harmless", "a=b", "a=b"],
    ["- inside is harmless", "2026-03-01", "2026-03-01"],
    ["a quote first is quoted", "'already", "'already"],
    ["UTF-8 text passes as it is", "Zürich café ✓", "Zürich café ✓"],
    ["an ISO time", "2026-03-01T00:00:00.000Z", "2026-03-01T00:00:00.000Z"],
    ["a decimal amount", "49.000000", "49.000000"],
  ])("%s", (_name, value, cell) => {
    expect(formatCsvCell(value)).toBe(cell);
  });

  it("a row keeps the columns' order and ends with CRLF", () => {
    expect(formatCsvRow(["b", "a"] as const, { a: "1", b: null })).toBe(",1\r\n");
    expect(formatCsvHeader(["b", "a"])).toBe("b,a\r\n");
  });
});

describe("report columns, exactly and in this order", () => {
  it.each([
    [
      "payments",
      paymentReportColumns,
      "paid_at, invoice_id, checkout_session_id, merchant_order_id, network, token, token_amount, tx_hash, payer_address, currency, amount, amount_usd, rate, quote_source, refunded_amount",
    ],
    [
      "refunds",
      refundReportColumns,
      "created_at, refund_id, invoice_id, network, token, amount, status, to_address, tx_hash, reason",
    ],
  ])("%s", (_name, columns, expected) => {
    expect(columns.join(", ")).toBe(expected);
  });
});
