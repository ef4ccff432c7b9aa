import type { ReactNode } from "react";

export type Column<Row> = {
  header: string;
  cell: (row: Row) => ReactNode;
  /** Right-aligned, tabular figures: for amounts. */
  numeric?: boolean;
};

// Below the md breakpoint the same table is laid out as cards: a row is a block, each cell a line
// with its column's name in front (drawn from data-label, so the name is not text a second time in
// the page) and its content in one box on the right; the header row stays for screen readers only
// and an empty cell (no action for this row) is left out. Every column stays visible, nothing
// scrolls sideways, and no row is rendered twice. From md up it is an ordinary table whose cells
// wrap so it fits its card.
const tableClass = "w-full text-sm max-md:block";
const headClass = "max-md:sr-only";
const bodyClass = "divide-y divide-slate-100 max-md:block";
const rowClass = "hover:bg-slate-50 max-md:flex max-md:flex-col max-md:gap-1.5 max-md:px-4 max-md:py-3";
const cellClass =
  "px-4 py-3 align-top text-slate-700 [overflow-wrap:anywhere] md:first:pl-5 md:last:pr-5 " +
  "max-md:flex max-md:items-start max-md:justify-between max-md:gap-4 max-md:p-0 max-md:text-right " +
  "max-md:before:shrink-0 max-md:before:pt-0.5 max-md:before:text-left max-md:before:text-xs " +
  "max-md:before:font-medium max-md:before:uppercase max-md:before:tracking-wide max-md:before:text-slate-600 " +
  "max-md:before:content-[attr(data-label)] max-md:[&:has(>div:empty)]:hidden";

/** A list of rows: a table on wide screens, a card per row on phones. */
export function DataTable<Row>({
  columns,
  rows,
  rowKey,
  caption,
}: {
  columns: Column<Row>[];
  rows: Row[];
  rowKey: (row: Row) => string;
  caption: string;
}) {
  const align = (column: Column<Row>) => (column.numeric ? "text-right tabular-nums" : "text-left");
  return (
    <table className={tableClass}>
      <caption className="sr-only">{caption}</caption>
      <thead className={headClass}>
        <tr className="border-b border-slate-100 text-xs uppercase tracking-wide text-slate-600">
          {columns.map((column) => (
            <th
              key={column.header}
              scope="col"
              className={`px-4 py-2.5 font-medium first:pl-5 last:pr-5 ${align(column)}`}
            >
              {column.header}
            </th>
          ))}
        </tr>
      </thead>
      <tbody className={bodyClass}>
        {rows.map((row) => (
          <tr key={rowKey(row)} className={rowClass}>
            {columns.map((column) => (
              <td
                key={column.header}
                data-label={column.header}
                className={`${cellClass} ${column.numeric ? "md:whitespace-nowrap" : ""} ${align(column)}`}
              >
                <div className="min-w-0">{column.cell(row)}</div>
              </td>
            ))}
          </tr>
        ))}
      </tbody>
    </table>
  );
}
