// RFC 4180 for spreadsheets: fields separated by commas, records ended by CRLF, a field quoted when
// it holds a comma, a quote, CR or LF, a quote inside doubled. A cell a spreadsheet would run as a
// formula (its first character = + - @, tab or CR) gets a leading `'`, so an order id such as
// `=HYPERLINK(…)` is shown as text, never evaluated (OWASP's CSV injection advice).

const formulaStart = /^[=+\-@\t\r]/;
const needsQuotes = /[",\r\n]/;

/** One cell's text: empty for null, neutralised when formula-like, quoted when it must be. */
export function formatCsvCell(value: string | null): string {
  if (value === null) return "";
  const text = formulaStart.test(value) ? `'${value}` : value;
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
