import type { ReactNode } from "react";

export type Column<Row> = {
  header: string;
  cell: (row: Row) => ReactNode;
  /** Right-aligned, tabular figures: for amounts. */
  numeric?: boolean;
  /** Hidden on narrow screens, where the first columns carry the row. */
  wide?: boolean;
};

/** A list of rows as a table that scrolls sideways inside its card instead of the page. */
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
  const align = (column: Column<Row>) =>
    `${column.numeric ? "text-right tabular-nums" : "text-left"} ${column.wide ? "hidden md:table-cell" : ""}`;
  return (
    <div className="overflow-x-auto">
      <table className="w-full text-sm">
        <caption className="sr-only">{caption}</caption>
        <thead>
          <tr className="border-b border-slate-100 text-xs uppercase tracking-wide text-slate-500">
            {columns.map((column) => (
              <th key={column.header} scope="col" className={`px-5 py-2.5 font-medium ${align(column)}`}>
                {column.header}
              </th>
            ))}
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100">
          {rows.map((row) => (
            <tr key={rowKey(row)} className="hover:bg-slate-50">
              {columns.map((column) => (
                <td
                  key={column.header}
                  className={`whitespace-nowrap px-5 py-3 text-slate-700 ${align(column)}`}
                >
                  {column.cell(row)}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
