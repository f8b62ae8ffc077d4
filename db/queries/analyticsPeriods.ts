import type { DayRange } from '../../core/analyticsParams';

/**
 * The periods `ranges` as rows `p(i, first_day, last_day)` (bindings `first<i>`, `last<i>`): a statement joins them to
 * read every period in one round trip, planned once (`/business`'s figures: 0.5 ms to plan on a warm connection, 2 ms
 * on a fresh one, against 4.5–5.5 ms to execute a period of 30 days at 1 M events).
 */
export function periodsOf(ranges: DayRange[]): { sql: string; bindings: Record<string, string> } {
  const rows = ranges.map((_, i) => `(${i}, CAST(:first${i} AS date), CAST(:last${i} AS date))`);
  const bindings = Object.fromEntries(
    ranges.flatMap((range, i) => [
      [`first${i}`, range.start],
      [`last${i}`, range.end],
    ]),
  );
  return { sql: `(VALUES ${rows.join(', ')}) AS p(i, first_day, last_day)`, bindings };
}
