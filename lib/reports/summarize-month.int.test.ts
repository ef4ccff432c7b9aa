import { describe, expect, it } from "vitest";
import { db } from "@/lib/db/client";
import { createTestInvoice, createTestOrganization } from "@/scripts/test-support/fixtures";
import { createTestRefund } from "@/scripts/test-support/refund-fixtures";
import { summarizeMonth } from "./summarize-month";

// The dashboard's month of books on PostgreSQL: which payments and refunds fall in which UTC
// month (offsets in the times written, the first and last millisecond of a month), refunds
// counted in the month they succeeded rather than the month of their payment, several tokens,
// refunds that did not succeed and other organizations' money left out.

type Paid = {
  token: string;
  amount: string;
  usd: string;
  at: string;
  status?: "CONFIRMED" | "AWAITING_PAYMENT";
};
type Refunded = {
  of: number;
  amount: string;
  usd: string;
  at: string | null;
  status: "SUCCEEDED" | "FAILED" | "SUBMITTED";
};

// Each payment names the month it belongs to in its comment; a refund's `of` is its payment's index.
const paid: Paid[] = [
  { token: "USDC", amount: "10", usd: "10", at: "2026-03-01T00:00:00.000Z" }, // March: its first instant
  { token: "USDC", amount: "20", usd: "20", at: "2026-03-31T23:59:59.999Z" }, // March: its last millisecond
  { token: "USDC", amount: "5", usd: "5", at: "2026-04-01T00:30:00+02:00" }, // March (22:30 UTC)
  { token: "USDC", amount: "7", usd: "7", at: "2026-03-31T23:30:00-01:00" }, // April (00:30 UTC)
  { token: "ETH", amount: "0.5", usd: "1500", at: "2026-03-15T12:00:00Z" }, // March
  { token: "USDC", amount: "9", usd: "9", at: "2026-02-28T23:59:59.999Z" }, // February
  { token: "USDC", amount: "50", usd: "50", at: "2026-03-10T00:00:00Z", status: "AWAITING_PAYMENT" }, // never
];
const refunded: Refunded[] = [
  { of: 1, amount: "4", usd: "4", at: "2026-04-02T08:00:00Z", status: "SUCCEEDED" }, // April, for a March payment
  { of: 4, amount: "0.1", usd: "300.000000000000000001", at: "2026-03-20T09:00:00Z", status: "SUCCEEDED" }, // March
  { of: 5, amount: "1", usd: "1", at: "2026-03-02T00:00:00Z", status: "SUCCEEDED" }, // March, for a February payment
  { of: 0, amount: "3", usd: "3", at: "2026-03-05T00:00:00Z", status: "FAILED" }, // never
  { of: 0, amount: "2", usd: "2", at: null, status: "SUBMITTED" }, // never (not yet)
];

async function books() {
  const { organization } = await createTestOrganization("Monthly Books");
  const invoices = [];
  for (const payment of paid) {
    const status = payment.status ?? "CONFIRMED";
    const invoice = await createTestInvoice(organization.id, {
      amount: payment.amount,
      amountUsd: payment.usd,
      status,
      confirmedAt: new Date(payment.at),
    });
    invoices.push(
      await db().invoice.update({
        where: { id: invoice.id },
        data: { token: payment.token, amountPaid: status === "CONFIRMED" ? payment.amount : "0" },
      }),
    );
  }
  for (const refund of refunded) {
    await createTestRefund(invoices[refund.of], {
      amount: refund.amount,
      amountUsd: refund.usd,
      status: refund.status,
      toAddress: "0x70997970C51812dc3A010C7d01b50e0d17dc79C8",
      confirmedAt: refund.at ? new Date(refund.at) : null,
    });
  }
  // Another organization's March payment: never in these books.
  const other = await createTestOrganization("Other Books");
  await createTestInvoice(other.organization.id, {
    amount: "1000",
    status: "CONFIRMED",
    confirmedAt: new Date("2026-03-10T00:00:00Z"),
  });
  return organization.id;
}

/** [received, refunded, net]: per token in the token, in all in USD. */
type Sums = [string, string, string];
const sums = ([received, refunded, net]: Sums) => ({ received, refunded, net });

describe("summarizeMonth", () => {
  // month, per token, in USD, days in the month, and the days with money: "day received refunded" in USD.
  it.each<[string, Record<string, Sums>, Sums, number, string]>([
    [
      "2026-03",
      { ETH: ["0.5", "0.1", "0.4"], USDC: ["35", "1", "34"] },
      ["1535.00", "301.00", "1234.00"],
      31,
      "01 10.00 0.00, 02 0.00 1.00, 15 1500.00 0.00, 20 0.00 300.00, 31 25.00 0.00",
    ],
    ["2026-04", { USDC: ["7", "4", "3"] }, ["7.00", "4.00", "3.00"], 30, "01 7.00 0.00, 02 0.00 4.00"],
    ["2026-02", { USDC: ["9", "0", "9"] }, ["9.00", "0.00", "9.00"], 28, "28 9.00 0.00"],
    ["2028-02", {}, ["0.00", "0.00", "0.00"], 29, ""],
  ])(
    "%s: received, refunded and net by token and in USD, and per day",
    async (month, tokens, usd, days, withMoney) => {
      const organizationId = await books();
      const summary = await summarizeMonth(db(), organizationId, month);
      expect(summary.tokens).toEqual(
        Object.entries(tokens).map(([token, each]) => ({ token, ...sums(each) })),
      );
      expect(summary.usd).toEqual(sums(usd));
      expect(summary.days).toHaveLength(days);
      expect(summary.days[0].date).toBe(`${month}-01`);
      expect(summary.days.filter((day) => day.receivedUsd !== "0.00" || day.refundedUsd !== "0.00")).toEqual(
        withMoney
          .split(", ")
          .filter(Boolean)
          .map((entry) => {
            const [day, receivedUsd, refundedUsd] = entry.split(" ");
            return { date: `${month}-${day}`, receivedUsd, refundedUsd };
          }),
      );
    },
  );
});
