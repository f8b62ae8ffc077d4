import type { FieldProblem } from './templates';

/**
 * How far ahead of the server clock an event's own time may be. Clocks of the operator's systems drift and a
 * request takes time in flight, so a few minutes are allowed; an hour ahead is a wrong clock or a wrong field, and it
 * would put the event on a day that has not begun. Past times have no bound: a history imported today keeps its days.
 */
export const MAX_EVENT_FUTURE_MS = 5 * 60_000;

/**
 * `YYYY-MM-DD` (midnight UTC) or a date and time with seconds optional, a fraction optional and a zone required (`Z`
 * or `±hh:mm`): a time without a zone would be read in the server's zone, so the same event could land on another day.
 */
const ISO_TIMESTAMP = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2}))?$/;

export type Occurrence = { ok: true; occurredAt: string | null } | { ok: false; problem: FieldProblem };

const FIELD = 'data.timestamp';

/** The calendar parts exist as written (no 2026-02-30), so `Date` does not roll them over into another day. */
function validParts(match: RegExpExecArray): boolean {
  const [year, month, day, hour = '0', minute = '0', second = '0'] = match.slice(1, 7).map((part) => part ?? '0');
  if (Number(year) < 1 || Number(month) < 1 || Number(month) > 12 || Number(hour) > 23 || Number(minute) > 59 || Number(second) > 59) return false;
  const daysInMonth = new Date(Date.UTC(Number(year), Number(month), 0)).getUTCDate();
  return Number(day) >= 1 && Number(day) <= daysInMonth;
}

/**
 * The event's own time (spec 2.13 `timestamp`, sent in `data.timestamp`): an instant in ISO 8601, at most
 * `MAX_EVENT_FUTURE_MS` ahead of `now`, any age. `occurredAt: null` when the event carries none (it then occurred when
 * it arrived). A value that is there but not such a time is a problem naming the field, never silently the arrival time.
 */
export function occurrenceOf(data: Record<string, unknown>, now: number = Date.now()): Occurrence {
  const value = data.timestamp;
  if (value === undefined || value === null) return { ok: true, occurredAt: null };
  const text = typeof value === 'string' ? value.trim() : '';
  const match = ISO_TIMESTAMP.exec(text);
  const parsed = match ? new Date(match[4] === undefined ? `${text}T00:00:00Z` : text.replace(' ', 'T')) : null;
  if (!match || !parsed || Number.isNaN(parsed.getTime()) || !validParts(match)) {
    return { ok: false, problem: { field: FIELD, message: 'must be an ISO 8601 date (YYYY-MM-DD) or date and time with a zone (Z or ±hh:mm)' } };
  }
  if (parsed.getTime() > now + MAX_EVENT_FUTURE_MS) {
    return { ok: false, problem: { field: FIELD, message: `must be at most ${MAX_EVENT_FUTURE_MS / 60_000} minutes ahead of the server's clock` } };
  }
  return { ok: true, occurredAt: parsed.toISOString() };
}
