// RFC 4180 for spreadsheets: fields separated by commas, records ended by CRLF, a field quoted when
// it holds a comma, a quote, CR or LF, a quote inside doubled. A cell a spreadsheet would run as a
// formula (its first character = + - @, tab or CR) gets a leading `'`, so an order id such as
// `=HYPERLINK(…)` is shown as text, never evaluated (OWASP's CSV injection advice).

// A spreadsheet set to split on semicolons or tabs (German, French, Dutch Excel) starts a new cell
// after each, and the full-width ＝＋－＠ start formulas too: each such start is neutralised
// wherever a cell could begin, and the cell is quoted whenever it holds a separator of any locale.
const formulaStart = /^[=+\-@\t\r\uff1d\uff0b\uff0d\uff20]/;
const formulaAfterSeparator = /([;\t]\s*)([=+\-@\uff1d\uff0b\uff0d\uff20])/g;
const needsQuotes = /[",;\t\r\n]/;

/** One cell's text: empty for null, neutralised when formula-like, quoted when it must be. */
export function formatCsvCell(value: string | null): string {
  if (value === null) return "";
  const inner = value.replace(formulaAfterSeparator, "$1'$2");
  const text = formulaStart.test(inner) ? `'${inner}` : inner;
  return needsQuotes.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/** One record of `columns`, in their order, from a row keyed by them; ends with CRLF. */
export function formatCsvRow<C extends string>(
  columns: readonly C[],
  row: Readonly<Record<C, string | null>>,
): string {
  return `${columns.map((column) => formatCsvCell(row[column])).join(",")}\r\n`;
}

/** The header record: the column names themselves. */
export function formatCsvHeader(columns: readonly string[]): string {
  return `${columns.join(",")}\r\n`;
}
