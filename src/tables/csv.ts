// RFC 4180: a field holding a comma, a double quote, CR or LF is quoted, quotes doubled.
const NEEDS_QUOTES = /[",\r\n]/;

function field(value: unknown): string {
  if (value === null || value === undefined) return '';
  const text =
    typeof value === 'string' ? value : typeof value === 'object' ? JSON.stringify(value) : String(value);
  return NEEDS_QUOTES.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/**
 * CSV text (RFC 4180, CRLF line ends) of `rows` with a header line of `columns`, in that order.
 * A null or missing cell is an empty field.
 */
export function toCsv(
  rows: readonly Readonly<Record<string, unknown>>[],
  columns: readonly string[],
): string {
  const lines = [columns.map(field).join(',')];
  for (const row of rows) lines.push(columns.map((c) => field(row[c])).join(','));
  return `${lines.join('\r\n')}\r\n`;
}
