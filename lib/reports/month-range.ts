import { z } from "zod";

// A month of the books is a UTC calendar month, as the reports' days are UTC days: the same
// payment falls in the same month wherever the server or the reader is.

/** "2026-03", a month from 2000-01 to 9999-12 (the reports' years). */
export const monthField = z.string().regex(/^(2\d{3}|[3-9]\d{3})-(0[1-9]|1[0-2])$/, {
  error: "must be a month as YYYY-MM, from 2000-01",
});

/** The half-open range [first instant of the month, first instant of the next) of a "YYYY-MM". */
export function monthRange(month: string): { from: Date; to: Date } {
  const [year, index] = month.split("-").map(Number);
  return { from: new Date(Date.UTC(year, index - 1, 1)), to: new Date(Date.UTC(year, index, 1)) };
}

/** The UTC month an instant falls in, `back` months earlier: "2026-03" for 2026-03-31T23:59Z. */
export function monthOf(at: Date, back = 0): string {
  return new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth() - back, 1)).toISOString().slice(0, 7);
}
