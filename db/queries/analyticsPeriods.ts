import type { DayRange } from '../../core/analyticsParams';

/**
 * The periods `ranges` as rows `p(i, first_day, last_day)` (bindings `first<i>`, `last<i>`): a statement joins them to
 * read every period at once, planned once: planning `/business`'s figures took about 2 ms of PostgreSQL's CPU, as much
 * as executing them for a period of 30 days at 1 M events.
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
