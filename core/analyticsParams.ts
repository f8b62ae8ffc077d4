/** Pure parsing of the analytics query parameters: ranges are whole UTC days, inclusive at both ends. */

export type Period = 'daily' | 'weekly' | 'monthly';

export interface DayRange {
  /** First day, `YYYY-MM-DD`. */
  start: string;
  /** Last day, `YYYY-MM-DD` (inclusive). */
  end: string;
}

const PRESETS: Record<string, number> = { '7d': 7, '14d': 14, '30d': 30, '90d': 90 };
const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
/** A custom range may span at most this many days (a century), so one request cannot ask for unbounded buckets. */
export const MAX_RANGE_DAYS = 36_525;
const DAY_MS = 86_400_000;

export const isoDay = (date: Date): string => date.toISOString().slice(0, 10);
const addDays = (day: string, days: number): string => isoDay(new Date(Date.parse(`${day}T00:00:00Z`) + days * DAY_MS));

function parseIsoDate(value: string): string | null {
  const match = ISO_DATE.exec(value);
  if (!match) return null;
  const date = new Date(`${value}T00:00:00Z`);
  return Number.isNaN(date.getTime()) || isoDay(date) !== value ? null : value;
}

/** The last `days` UTC days ending today. */
export function lastDays(days: number, now: Date): DayRange {
  const end = isoDay(now);
  return { start: addDays(end, -(days - 1)), end };
}

/**
 * `7d`/`14d`/`30d`/`90d` (the last N days including today) or `<start>:<end>` ISO dates; `fallback` when absent.
 * Returns null for anything else, including an end before the start or a span over `MAX_RANGE_DAYS`.
 */
export function parseRange(value: string | undefined, now: Date, fallback: DayRange): DayRange | null {
  if (value === undefined) return fallback;
  const preset = PRESETS[value];
  if (preset !== undefined) return lastDays(preset, now);
  const parts = value.split(':');
  if (parts.length !== 2) return null;
  const start = parseIsoDate(parts[0]!);
  const end = parseIsoDate(parts[1]!);
  if (!start || !end || start > end) return null;
  if ((Date.parse(end) - Date.parse(start)) / DAY_MS + 1 > MAX_RANGE_DAYS) return null;
  return { start, end };
}

/** Default revenue lookbacks (spec 4.4): 30 days daily, 12 weeks weekly (from Monday), 12 months monthly (from the 1st). */
export function defaultRevenueRange(period: Period, now: Date): DayRange {
  const end = isoDay(now);
  if (period === 'daily') return lastDays(30, now);
  if (period === 'weekly') {
    const weekday = (now.getUTCDay() + 6) % 7;
    return { start: addDays(end, -weekday - 7 * 11), end };
  }
  const first = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 11, 1));
  return { start: isoDay(first), end };
}
