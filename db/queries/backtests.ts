import type { Knex } from 'knex';
import type { HistoryEvent } from '../../core/automations/backtest';
import type { BacktestTally } from '../../core/automations/backtestTally';
import type { AutomationDefinition } from '../../core/automations/types';
import type { Db } from '../knex';

type Runner = Db | Knex.Transaction;

export type BacktestStatus = 'running' | 'completed' | 'cancelled' | 'failed';
export type BacktestSide = 'backtested' | 'baseline';

/** A `backtests` row (db/migrations/20261130120000_create_backtests.ts); bigint columns come back as strings. */
export interface BacktestRow {
  id: string;
  operator_id: string;
  automation_id: string;
  version: number | null;
  definition: AutomationDefinition;
  sample_outputs: Record<string, unknown>;
  baseline_version: number;
  baseline_active: boolean;
  baseline_definition: AutomationDefinition;
  range_from: Date;
  range_to: Date;
  status: BacktestStatus;
  cursor: string;
  last_seq: string;
  total: number;
  processed: number;
  tallies: Record<BacktestSide, BacktestTally> | null;
  result: unknown;
  error: { code: string; message: string } | null;
  created_at: Date;
  completed_at: Date | null;
}

export type NewBacktest = Pick<
  BacktestRow,
  | 'id'
  | 'operator_id'
  | 'automation_id'
  | 'version'
  | 'definition'
  | 'sample_outputs'
  | 'baseline_version'
  | 'baseline_active'
  | 'baseline_definition'
  | 'range_from'
  | 'range_to'
>;

/** The operator's stored events of the range whose type one of `events` names: the history a backtest replays. */
const history = (db: Runner, row: Pick<BacktestRow, 'operator_id' | 'range_from' | 'range_to'>, events: string[]) =>
  db('outbox_events as o')
    .where('o.operator_id', row.operator_id)
    .where('o.occurred_at', '>=', row.range_from)
    .where('o.occurred_at', '<', row.range_to)
    .whereRaw('o.event = ANY(?::text[])', [events]);

/**
 * Records a running backtest with its fixed history (events up to the range's last `seq` now: later ones never join)
 * in one transaction: `busy` with the running one's id when the operator already has a running backtest, `too_many`
 * when the range holds more than `maxEvents` events of the types the definitions listen to.
 */
export async function createBacktest(
  db: Db,
  row: NewBacktest,
  events: string[],
  maxEvents: number,
): Promise<{ kind: 'created'; row: BacktestRow } | { kind: 'busy'; runningId: string } | { kind: 'too_many'; count: number }> {
  return db.transaction(async (trx) => {
    const insert = {
      ...row,
      definition: JSON.stringify(row.definition),
      baseline_definition: JSON.stringify(row.baseline_definition),
      sample_outputs: JSON.stringify(row.sample_outputs),
    };
    const [inserted] = (await trx('backtests')
      .insert(insert)
      .onConflict(trx.raw("(operator_id) WHERE status = 'running'"))
      .ignore()
      .returning('*')) as BacktestRow[];
    if (!inserted) {
      const running = await trx<BacktestRow>('backtests').where({ operator_id: row.operator_id, status: 'running' }).first('id');
      return { kind: 'busy' as const, runningId: running?.id ?? '' };
    }
    const capped = history(trx, row, events)
      .select(trx.raw('o.seq'))
      .limit(maxEvents + 1);
    const [counted] = (await trx.from(capped.as('h')).select(trx.raw('count(*)::int AS count, coalesce(max(seq), 0)::text AS last'))) as Array<{
      count: number;
      last: string;
    }>;
    const count = counted?.count ?? 0;
    if (count > maxEvents) {
      await trx('backtests').where({ operator_id: row.operator_id, id: row.id }).delete();
      return { kind: 'too_many' as const, count };
    }
    const [created] = (await trx('backtests')
      .where({ operator_id: row.operator_id, id: row.id })
      .update({ total: count, last_seq: counted?.last ?? '0' })
      .returning('*')) as BacktestRow[];
    return { kind: 'created' as const, row: created! };
  });
}

export async function findBacktest(db: Runner, operatorId: string, backtestId: string): Promise<BacktestRow | undefined> {
  return db<BacktestRow>('backtests').where({ operator_id: operatorId, id: backtestId }).first();
}

/**
 * The next `limit` events of a backtest's history after its cursor, in recorded order, each in the internal-event
 * shape a live dispatch gives a run — built as db/queries/outbox.ts `readOutboxEvents` builds it (thin rows joined to
 * their recorded event, redaction showing through).
 */
export async function historyPage(db: Runner, row: BacktestRow, events: string[], limit: number): Promise<HistoryEvent[]> {
  const rows = (await history(db, row, events)
    .where('o.seq', '>', row.cursor)
    .where('o.seq', '<=', row.last_seq)
    .leftJoin('entity_events as e', function joinEvent() {
      this.on('e.id', '=', 'o.source_event_id').andOn('e.operator_id', '=', 'o.operator_id');
    })
    .leftJoin('entities as n', function joinEntity() {
      this.on('n.id', '=', 'o.entity_id').andOn('n.operator_id', '=', 'o.operator_id').andOnNotNull('o.source_event_id');
    })
    .select(
      db.raw('o.seq::text AS seq'),
      'o.origin_automation_id',
      db.raw(`coalesce(o.payload, jsonb_build_object(
              'id', o.id, 'event', o.event, 'operatorId', o.operator_id,
              'occurredAt', to_char(o.occurred_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
              'entity', jsonb_build_object('id', n.id, 'externalId', n.external_id, 'entityType', n.entity_type),
              'data', coalesce(e.data, '{"_redacted": true}'::jsonb) || CASE WHEN jsonb_exists(e.data, '_redacted') THEN '{}'::jsonb ELSE jsonb_build_object('eventId', o.source_event_id) END)) AS payload`),
    )
    .orderBy('o.seq')
    .limit(limit)) as Array<{ seq: string; origin_automation_id: string | null; payload: HistoryEvent['event'] }>;
  return rows.map((item) => ({ seq: item.seq, event: item.payload, originWorkflowId: item.origin_automation_id }));
}

/**
 * Adds one page to a running backtest, once: the cursor moves from `fromCursor` to `toCursor` with the page's tallies
 * and players in one transaction, and a page whose cursor has already moved (a retried activity) changes nothing.
 */
export async function recordBacktestPage(
  db: Db,
  operatorId: string,
  backtestId: string,
  page: {
    fromCursor: string;
    toCursor: string;
    processed: number;
    tallies: Record<BacktestSide, BacktestTally>;
    players: Array<{ side: BacktestSide; entityId: string; externalId: string; actions: number }>;
  },
): Promise<boolean> {
  return db.transaction(async (trx) => {
    const moved = await trx('backtests')
      .where({ operator_id: operatorId, id: backtestId, status: 'running', cursor: page.fromCursor })
      .update({ cursor: page.toCursor, processed: trx.raw('processed + ?', [page.processed]), tallies: JSON.stringify(page.tallies) });
    if (moved === 0) return false;
    if (page.players.length > 0) {
      await trx.raw(
        `INSERT INTO backtest_players (backtest_id, operator_id, side, entity_id, external_id, actions)
         SELECT ?, ?::uuid, u.side, u.entity_id, u.external_id, u.actions
           FROM unnest(?::text[], ?::text[], ?::text[], ?::int[]) AS u(side, entity_id, external_id, actions)
         ON CONFLICT (backtest_id, side, entity_id) DO UPDATE SET actions = backtest_players.actions + excluded.actions`,
        [
          backtestId,
          operatorId,
          page.players.map((p) => p.side),
          page.players.map((p) => p.entityId),
          page.players.map((p) => p.externalId),
          page.players.map((p) => p.actions),
        ],
      );
    }
    return true;
  });
}

/** Ends a running backtest with its status and result (or error); undefined when it was no longer running. */
export async function finishBacktest(
  db: Runner,
  operatorId: string,
  backtestId: string,
  end: { status: Exclude<BacktestStatus, 'running'>; result?: unknown; error?: { code: string; message: string } },
): Promise<BacktestRow | undefined> {
  const [row] = (await db('backtests')
    .where({ operator_id: operatorId, id: backtestId, status: 'running' })
    .update({
      status: end.status,
      completed_at: db.fn.now(),
      ...(end.result === undefined ? {} : { result: JSON.stringify(end.result) }),
      ...(end.error ? { error: JSON.stringify(end.error) } : {}),
    })
    .returning('*')) as BacktestRow[];
  return row;
}

export interface PlayerList {
  total: number;
  /** External ids, in order, at most the limit asked for. */
  ids: string[];
}

/** Players one side acts for and the other does not (`only`), or every player of one side (`only` without `other`). */
async function playersOf(
  db: Runner,
  operatorId: string,
  backtestId: string,
  only: BacktestSide,
  other: BacktestSide | null,
  limit: number,
): Promise<PlayerList> {
  const query = db('backtest_players as p').where({ 'p.operator_id': operatorId, 'p.backtest_id': backtestId, 'p.side': only });
  if (other) {
    query.whereNotExists(
      db('backtest_players as q')
        .whereRaw('q.operator_id = p.operator_id AND q.backtest_id = p.backtest_id AND q.entity_id = p.entity_id')
        .where('q.side', other),
    );
  }
  const rows = (await query.select('p.external_id', db.raw('count(*) OVER ()::int AS total')).orderBy('p.external_id').limit(limit)) as Array<{
    external_id: string;
    total: number;
  }>;
  return { total: rows[0]?.total ?? 0, ids: rows.map((row) => row.external_id) };
}

/** The players of a backtest: those the backtested definition acts for, and the diff against the baseline's. */
export async function backtestPlayers(db: Runner, operatorId: string, backtestId: string, limit: number) {
  return {
    affected: await playersOf(db, operatorId, backtestId, 'backtested', null, limit),
    newlyAffected: await playersOf(db, operatorId, backtestId, 'backtested', 'baseline', limit),
    noLongerAffected: await playersOf(db, operatorId, backtestId, 'baseline', 'backtested', limit),
  };
}
