import type { Knex } from 'knex';

interface QueryEvent {
  __knexQueryUid?: string;
  sql?: string;
}

export interface StatementTotal {
  label: string;
  ms: number;
  calls: number;
}

/** A statement's name in a report: its start and its end, where a pass's statements differ (they share CTE prefixes). */
const labelOf = (sql: string): string => {
  const flat = sql.replace(/\s+/g, ' ').trim();
  return flat.length <= 110 ? flat : `${flat.slice(0, 50)} … ${flat.slice(-55)}`;
};

/**
 * Times every statement a knex instance runs while recording, from its own `query` and `query-response` events (a
 * transaction's statements reach the instance too): where a measured phase spends its time, read beside the phase's
 * wall time, without touching the code it measures.
 */
export function statementTimes(db: Knex) {
  const started = new Map<string, number>();
  const totals = new Map<string, StatementTotal>();
  let recording = false;
  const onQuery = (query: QueryEvent) => {
    if (recording && query.__knexQueryUid) started.set(query.__knexQueryUid, performance.now());
  };
  const onDone = (query: QueryEvent) => {
    const at = query.__knexQueryUid ? started.get(query.__knexQueryUid) : undefined;
    if (at === undefined) return;
    started.delete(query.__knexQueryUid!);
    const label = labelOf(query.sql ?? '');
    const total = totals.get(label) ?? { label, ms: 0, calls: 0 };
    total.ms += performance.now() - at;
    total.calls += 1;
    totals.set(label, total);
  };
  const onResponse = (_response: unknown, query: QueryEvent) => onDone(query);
  const onError = (_error: unknown, query: QueryEvent) => onDone(query);
  db.on('query', onQuery).on('query-response', onResponse).on('query-error', onError);
  return {
    start: () => {
      recording = true;
    },
    stop: () => {
      recording = false;
    },
    /** The `count` statements that took longest in all, and the sum over every statement. */
    report: (count: number): { top: StatementTotal[]; totalMs: number } => {
      const all = [...totals.values()].sort((a, b) => b.ms - a.ms);
      return { top: all.slice(0, count), totalMs: all.reduce((sum, entry) => sum + entry.ms, 0) };
    },
    close: () => {
      db.off('query', onQuery).off('query-response', onResponse).off('query-error', onError);
    },
  };
}
