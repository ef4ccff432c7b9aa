import { describe, expect, it } from "vitest";
import { type InvoiceStatus, nextInvoiceState } from "./invoice-state";

const deadline = new Date("2026-01-01T13:00:00Z");
const before = new Date("2026-01-01T12:30:00Z");
const after = new Date("2026-01-01T13:30:00Z");
const statuses: InvoiceStatus[] = [
  "AWAITING_PAYMENT",
  "PARTIALLY_PAID",
  "CONFIRMING",
  "CONFIRMED",
  "OVERDUE",
];

// Amounts against 10.000000 due: none, part, all seen but unconfirmed, all confirmed, overpaid.
const amounts = {
  nothing: { confirmed: "0", confirming: "0" },
  part: { confirmed: "2.5", confirming: "1.5" },
  "all unconfirmed": { confirmed: "4", confirming: "6" },
  "all confirmed": { confirmed: "10", confirming: "0" },
  overpaid: { confirmed: "12.000001", confirming: "0" },
} as const;

type Row = [InvoiceStatus, keyof typeof amounts, "before" | "after", InvoiceStatus, boolean, boolean];
// Every (current status, amounts seen, clock) combination: the whole table.
const table: Row[] = statuses.flatMap((current) =>
  (Object.keys(amounts) as (keyof typeof amounts)[]).flatMap((seen) =>
    (["before", "after"] as const).map((clock): Row => {
      const expected: InvoiceStatus =
        current === "CONFIRMED" || seen === "all confirmed" || seen === "overpaid"
          ? "CONFIRMED"
          : seen === "all unconfirmed"
            ? "CONFIRMING"
            : clock === "after" || current === "OVERDUE"
              ? "OVERDUE"
              : seen === "part"
                ? "PARTIALLY_PAID"
                : "AWAITING_PAYMENT";
      return [
        current,
        seen,
        clock,
        expected,
        expected === "CONFIRMED" && current !== "CONFIRMED",
        expected === "OVERDUE" && current !== "OVERDUE",
      ];
    }),
  ),
);

describe("nextInvoiceState", () => {
  it("covers every combination", () => {
    expect(table).toHaveLength(5 * 5 * 2);
  });

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
