/** Display helpers: the API's numbers and timestamps as a person reads them (en-GB, UTC shown as local time). */

const number = new Intl.NumberFormat('en-GB', { maximumFractionDigits: 2 });
const dateTime = new Intl.DateTimeFormat('en-GB', { dateStyle: 'medium', timeStyle: 'short' });
const date = new Intl.DateTimeFormat('en-GB', { dateStyle: 'medium', timeZone: 'UTC' });

export const formatNumber = (value: number | null | undefined): string => (value === null || value === undefined ? '—' : number.format(value));

export function formatMoney(value: number | null | undefined, currency: string): string {
  if (value === null || value === undefined) return '—';
  try {
    return new Intl.NumberFormat('en-GB', { style: 'currency', currency, maximumFractionDigits: 2 }).format(value);
  } catch {
    return `${number.format(value)} ${currency}`;
  }
}

export function formatDateTime(value: string | null | undefined): string {
  if (!value) return '—';
  const parsed = new Date(value);
  return Number.isNaN(parsed.getTime()) ? value : dateTime.format(parsed);
}

export function formatDate(value: string | null | undefined): string {
  if (!value) return '—';
  const parsed = new Date(value.length === 10 ? `${value}T00:00:00Z` : value);
  return Number.isNaN(parsed.getTime()) ? value : date.format(parsed);
}

export const formatPercent = (fraction: number | null | undefined): string =>
  fraction === null || fraction === undefined ? '—' : `${number.format(fraction * 100)} %`;

export function formatDuration(ms: number | null | undefined): string {
  if (ms === null || ms === undefined) return '—';
  if (ms < 1000) return `${Math.round(ms)} ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(1)} s`;
  return `${Math.floor(ms / 60_000)} min ${Math.round((ms % 60_000) / 1000)} s`;
}

/** A JSON value for reading (run inputs and outputs, supplier answers). */
export const pretty = (value: unknown): string => (value === undefined ? '—' : JSON.stringify(value, null, 2));
