import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { propertyRuns } from "@/scripts/test-support/property-runs";
import { fromBaseUnits } from "../money/decimal";
import { type InvoiceStatus, nextInvoiceState } from "./invoice-state";

const deadline = new Date("2026-01-01T13:00:00Z");
const before = new Date("2026-01-01T12:30:00Z");
const after = new Date("2026-01-01T13:30:00Z");
// Amounts against 10.000000 due: none, part, all seen but unconfirmed, all confirmed, overpaid.
const amounts = {
  nothing: { confirmed: "0", confirming: "0" },
  part: { confirmed: "2.5", confirming: "1.5" },
  "all unconfirmed": { confirmed: "4", confirming: "6" },
  "all confirmed": { confirmed: "10", confirming: "0" },
  overpaid: { confirmed: "12.000001", confirming: "0" },
} as const;

type Row = [InvoiceStatus, keyof typeof amounts, "before" | "after", InvoiceStatus, boolean, boolean];
// Every (current status, amounts seen, clock) combination, written out:
// current, seen, clock, next status, payment.confirmed now, invoice.overdue now.
const table: Row[] = [
  ["AWAITING_PAYMENT", "nothing", "before", "AWAITING_PAYMENT", false, false],
  ["AWAITING_PAYMENT", "nothing", "after", "OVERDUE", false, true],
  ["AWAITING_PAYMENT", "part", "before", "PARTIALLY_PAID", false, false],
  ["AWAITING_PAYMENT", "part", "after", "OVERDUE", false, true],
  ["AWAITING_PAYMENT", "all unconfirmed", "before", "CONFIRMING", false, false],
  ["AWAITING_PAYMENT", "all unconfirmed", "after", "CONFIRMING", false, false],
  ["AWAITING_PAYMENT", "all confirmed", "before", "CONFIRMED", true, false],
  ["AWAITING_PAYMENT", "all confirmed", "after", "CONFIRMED", true, false],
  ["AWAITING_PAYMENT", "overpaid", "before", "CONFIRMED", true, false],
  ["AWAITING_PAYMENT", "overpaid", "after", "CONFIRMED", true, false],
  ["PARTIALLY_PAID", "nothing", "before", "AWAITING_PAYMENT", false, false],
  ["PARTIALLY_PAID", "nothing", "after", "OVERDUE", false, true],
  ["PARTIALLY_PAID", "part", "before", "PARTIALLY_PAID", false, false],
  ["PARTIALLY_PAID", "part", "after", "OVERDUE", false, true],
  ["PARTIALLY_PAID", "all unconfirmed", "before", "CONFIRMING", false, false],
  ["PARTIALLY_PAID", "all unconfirmed", "after", "CONFIRMING", false, false],
  ["PARTIALLY_PAID", "all confirmed", "before", "CONFIRMED", true, false],
  ["PARTIALLY_PAID", "all confirmed", "after", "CONFIRMED", true, false],
  ["PARTIALLY_PAID", "overpaid", "before", "CONFIRMED", true, false],
  ["PARTIALLY_PAID", "overpaid", "after", "CONFIRMED", true, false],
  ["CONFIRMING", "nothing", "before", "AWAITING_PAYMENT", false, false],
  ["CONFIRMING", "nothing", "after", "OVERDUE", false, true],
  ["CONFIRMING", "part", "before", "PARTIALLY_PAID", false, false],
  ["CONFIRMING", "part", "after", "OVERDUE", false, true],
  ["CONFIRMING", "all unconfirmed", "before", "CONFIRMING", false, false],
  ["CONFIRMING", "all unconfirmed", "after", "CONFIRMING", false, false],
  ["CONFIRMING", "all confirmed", "before", "CONFIRMED", true, false],
  ["CONFIRMING", "all confirmed", "after", "CONFIRMED", true, false],
  ["CONFIRMING", "overpaid", "before", "CONFIRMED", true, false],
  ["CONFIRMING", "overpaid", "after", "CONFIRMED", true, false],
  ["CONFIRMED", "nothing", "before", "CONFIRMED", false, false],
  ["CONFIRMED", "nothing", "after", "CONFIRMED", false, false],
  ["CONFIRMED", "part", "before", "CONFIRMED", false, false],
  ["CONFIRMED", "part", "after", "CONFIRMED", false, false],
  ["CONFIRMED", "all unconfirmed", "before", "CONFIRMED", false, false],
  ["CONFIRMED", "all unconfirmed", "after", "CONFIRMED", false, false],
  ["CONFIRMED", "all confirmed", "before", "CONFIRMED", false, false],
  ["CONFIRMED", "all confirmed", "after", "CONFIRMED", false, false],
  ["CONFIRMED", "overpaid", "before", "CONFIRMED", false, false],
  ["CONFIRMED", "overpaid", "after", "CONFIRMED", false, false],
  ["OVERDUE", "nothing", "before", "OVERDUE", false, false],
  ["OVERDUE", "nothing", "after", "OVERDUE", false, false],
  ["OVERDUE", "part", "before", "OVERDUE", false, false],
  ["OVERDUE", "part", "after", "OVERDUE", false, false],
  ["OVERDUE", "all unconfirmed", "before", "CONFIRMING", false, false],
  ["OVERDUE", "all unconfirmed", "after", "CONFIRMING", false, false],
  ["OVERDUE", "all confirmed", "before", "CONFIRMED", true, false],
  ["OVERDUE", "all confirmed", "after", "CONFIRMED", true, false],
  ["OVERDUE", "overpaid", "before", "CONFIRMED", true, false],
  ["OVERDUE", "overpaid", "after", "CONFIRMED", true, false],
];

describe("nextInvoiceState", () => {
  it.each(table)(
    "%s with %s paid, %s the deadline -> %s (confirmed event %s, overdue event %s)",
    (current, seen, clock, status, confirmedEvent, overdueEvent) => {
      const next = nextInvoiceState(
        { status: current, amountDue: "10.000000", deadline },
        amounts[seen],
        clock === "before" ? before : after,
      );
      expect(next.status).toBe(status);
      expect(next.emitPaymentConfirmed).toBe(confirmedEvent);
      expect(next.emitInvoiceOverdue).toBe(overdueEvent);
    },
  );

  it("reports what remains after a partial payment, with decimal precision", () => {
    const next = nextInvoiceState(
      { status: "AWAITING_PAYMENT", amountDue: "10.000000", deadline },
      { confirmed: "3.333333", confirming: "0.000001" },
      before,
    );
    expect(next).toMatchObject({
      status: "PARTIALLY_PAID",
      seen: "3.333334",
      remaining: "6.666666",
      overpaid: "0",
    });
  });

  it("reports overpayment", () => {
    expect(
      nextInvoiceState(
        { status: "CONFIRMING", amountDue: "10", deadline },
        { confirmed: "10.5", confirming: "0" },
        before,
      ),
    ).toMatchObject({
      status: "CONFIRMED",
      overpaid: "0.5",
      remaining: "0",
      emitPaymentConfirmed: true,
      late: false,
    });
  });

  it("un-counts a reorganised payment: confirming falls back to partially paid", () => {
    const reorged = nextInvoiceState(
      { status: "CONFIRMING", amountDue: "10", deadline },
      { confirmed: "0", confirming: "4" },
      before,
    );
    expect(reorged).toMatchObject({ status: "PARTIALLY_PAID", emitPaymentConfirmed: false, remaining: "6" });
  });

  it("completes an overdue invoice paid late, and says so", () => {
    expect(
      nextInvoiceState(
        { status: "OVERDUE", amountDue: "10", deadline },
        { confirmed: "10", confirming: "0" },
        after,
      ),
    ).toMatchObject({
      status: "CONFIRMED",
      emitPaymentConfirmed: true,
      late: true,
    });
  });

  it("never emits payment.confirmed twice", () => {
    const again = nextInvoiceState(
      { status: "CONFIRMED", amountDue: "10", deadline },
      { confirmed: "20", confirming: "5" },
      after,
    );
    expect(again).toMatchObject({
      status: "CONFIRMED",
      emitPaymentConfirmed: false,
      emitInvoiceOverdue: false,
    });
  });
});

describe("partial payments against the amount due", () => {
  it("complete the invoice exactly when they add up to it, and one base unit short is still short", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 18 }),
        fc.array(fc.bigInt({ min: 1n, max: 10n ** 24n }), { minLength: 1, maxLength: 10 }),
        (decimals, units) => {
          const due = units.reduce((total, unit) => total + unit, 0n);
          const paid = (total: bigint) => ({ confirmed: fromBaseUnits(total, decimals), confirming: "0" });
          const view = {
            status: "PARTIALLY_PAID" as const,
            amountDue: fromBaseUnits(due, decimals),
            deadline,
          };
          const full = nextInvoiceState(view, paid(due), before);
          expect(full).toMatchObject({ status: "CONFIRMED", remaining: "0", overpaid: "0" });
          const short = nextInvoiceState(view, paid(due - 1n), before);
          expect(short.status).toBe(due === 1n ? "AWAITING_PAYMENT" : "PARTIALLY_PAID");
          expect(short.remaining).toBe(fromBaseUnits(1n, decimals).replace(/\.?0+$/, ""));
        },
      ),
      { numRuns: propertyRuns(500) },
    );
  });
});
