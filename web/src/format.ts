/** Display helpers: the API's numbers and timestamps as a person reads them (en-GB, UTC shown as local time). */

const number = new Intl.NumberFormat('en-GB', { maximumFractionDigits: 2 });
/** To the second: runs, replays and audit entries a few seconds apart must read apart (issue 44). */
const dateTime = new Intl.DateTimeFormat('en-GB', { dateStyle: 'medium', timeStyle: 'medium' });
const date = new Intl.DateTimeFormat('en-GB', { dateStyle: 'medium', timeZone: 'UTC' });
const month = new Intl.DateTimeFormat('en-GB', { month: 'short', year: 'numeric', timeZone: 'UTC' });

export const formatNumber = (value: number | null | undefined): string => (value === null || value === undefined ? '—' : number.format(value));

/** A count with its noun, singular for exactly one: "1 run", "2 runs", "1,200 runs". */
export const plural = (count: number, one: string, many = `${one}s`): string => `${number.format(count)} ${count === 1 ? one : many}`;

/** Digits after the decimal point of a currency (EUR 2, JPY 0, BHD 3). */
function minorDigits(currency: string): number {
  try {
    return new Intl.NumberFormat('en-GB', { style: 'currency', currency }).resolvedOptions().maximumFractionDigits ?? 2;
  } catch {
    return 2;
  }
}

/** A minor-unit amount in the currency's major unit, for charts. */
export const toMajor = (minor: number, currency: string): number => minor / 10 ** minorDigits(currency);

/**
 * Money as the platform stores it, in minor units (spec 2.13: amounts are "minor currency units"),
 * shown in the currency's major unit: 5000 EUR cents is €50.00.
 */
export function formatMoney(minor: number | null | undefined, currency: string): string {
  if (minor === null || minor === undefined) return '—';
  return formatMajor(minor / 10 ** minorDigits(currency), currency);
}

/** An amount already in the currency's major unit (a chart's value), with its currency: 50 EUR is €50.00. */
export function formatMajor(value: number, currency: string): string {
  try {
    return new Intl.NumberFormat('en-GB', { style: 'currency', currency }).format(value);
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

/** A month as the day format writes it, without the day: "Nov 2026" beside "2 Nov 2026" (a monthly bucket's label). */
export function formatMonth(value: string | null | undefined): string {
  if (!value) return '—';
  const parsed = new Date(value.length === 10 ? `${value}T00:00:00Z` : value);
  return Number.isNaN(parsed.getTime()) ? value : month.format(parsed);
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
