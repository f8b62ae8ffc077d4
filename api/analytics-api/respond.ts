import type { Context } from 'koa';

/** Spec 8: analytics responses over 1 MB are cut to fit and say `truncated: true`. */
export const MAX_RESPONSE_BYTES = 1_048_576;

/** The longest prefix of `rows` whose serialised size, plus `baseBytes`, stays within the limit. */
export function fitRows<T>(rows: T[], baseBytes: number, sizeOf: (row: T) => number): { rows: T[]; truncated: boolean } {
  let total = baseBytes;
  for (let index = 0; index < rows.length; index += 1) {
    total += sizeOf(rows[index]!) + 1;
    if (total > MAX_RESPONSE_BYTES) return { rows: rows.slice(0, index), truncated: true };
  }
  return { rows, truncated: false };
}

/** A JSON list response `{ success, data: { …data, [key]: rows }, truncated }`, cut to 1 MB. */
export function sendRows<T>(ctx: Context, key: string, rows: T[], data: Record<string, unknown>): void {
  const base = Buffer.byteLength(JSON.stringify({ success: true, data: { ...data, [key]: [] }, truncated: true }));
  const fitted = fitRows(rows, base, (row) => Buffer.byteLength(JSON.stringify(row)));
  ctx.body = { success: true, data: { ...data, [key]: fitted.rows }, truncated: fitted.truncated };
}

const csvCell = (value: unknown): string => {
  const text = value === null || value === undefined ? '' : typeof value === 'object' ? JSON.stringify(value) : String(value);
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
};

/** A CSV export (`format=csv`), header row first, cut to 1 MB; `X-Truncated` says whether rows were left out. */
export function sendCsv(ctx: Context, filename: string, columns: string[], rows: Array<Record<string, unknown>>): void {
  const header = columns.join(',');
  const lines = rows.map((row) => columns.map((column) => csvCell(row[column])).join(','));
  const fitted = fitRows(lines, Buffer.byteLength(header) + 1, (line) => Buffer.byteLength(line));
  ctx.set('Content-Disposition', `attachment; filename="${filename}.csv"`);
  ctx.set('X-Truncated', String(fitted.truncated));
  ctx.type = 'text/csv; charset=utf-8';
  ctx.body = [header, ...fitted.rows].join('\n') + '\n';
}
