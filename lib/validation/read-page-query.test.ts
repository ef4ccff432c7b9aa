import { describe, expect, it } from "vitest";
import { invoiceListQuery } from "../payments/list-invoices";
import { readPageQuery } from "./read-page-query";

describe("readPageQuery", () => {
  it.each([
    [{}, { page: 1, rows: 20 }],
    [
      { status: "", q: "order-1" },
      { page: 1, rows: 20, q: "order-1" },
    ],
    [
      { status: "CONFIRMED", page: "3" },
      { page: 3, rows: 20, status: "CONFIRMED" },
    ],
    [
      { status: "NOT_A_STATUS", q: "x" },
      { page: 1, rows: 20 },
    ],
    [{ page: "-1" }, { page: 1, rows: 20 }],
    [{ q: ["a", "b"] }, { page: 1, rows: 20 }],
  ])("reads %j as %j", (params, expected) => {
    expect(readPageQuery(invoiceListQuery, params)).toEqual(expected);
  });
});
