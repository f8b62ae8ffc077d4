import type { DayRange } from '../../core/analyticsParams';
import type { Db } from '../knex';
import { amountOf, CURRENCY, dayAfter, dayStart, firstDeposits, IN_RANGE, IS_DEPOSIT, IS_GAME, PLAYER_EVENTS } from './analyticsSql';
import type { AnalyticsScope } from './analyticsTypes';

/** Transaction statuses of the canonical contract (spec 2.13); a transaction without one counts as completed. */
export const TRANSACTION_STATUSES = ['pending', 'completed', 'failed', 'reversed', 'cancelled'] as const;
export type TransactionStatus = (typeof TRANSACTION_STATUSES)[number];

export interface FlowFigures {
  /** Σ amount of completed transactions (minor units): money figures never count pending, failed or reversed ones. */
  completed_amount: number;
  counts: Record<TransactionStatus, number>;
}

export interface BusinessFigures {
  registrations: number;
  ftd_count: number;
  ftd_amount: number;
  converted_players: number;
  conversion_rate: number;
  deposits: FlowFigures;
  withdrawals: FlowFigures;
  ggr: number;
  active_players: number;
  depositing_players: number;
  arpu: number;
  arppu: number;
}

const STATUS = `coalesce(e.data->>'status', 'completed')`;
/** Completed deposits of one player (alias `e`): a probe of `entity_events_counted_deposits_idx`, whose predicate this implies. */
const DEPOSITS_OF = (player: string) =>
  `entity_events e WHERE e.operator_id = :operatorId AND e.entity_id = ${player} AND ${IS_DEPOSIT} AND e.data->'_redacted' IS NULL`;

const flowColumns = (type: 'deposit' | 'withdrawal') =>
  [
    `sum(${amountOf('amount')}) FILTER (WHERE e.data->>'type' = '${type}' AND ${STATUS} = 'completed') AS ${type}_amount`,
    ...TRANSACTION_STATUSES.map((status) => `count(*) FILTER (WHERE e.data->>'type' = '${type}' AND ${STATUS} = '${status}') AS ${type}_${status}`),
  ].join(',\n');

/**
 * The business figures of one range in one currency (docs/analytics.md "Business figures"). Transactions are taken
 * once per transaction id (`data.id`, else the event), at their latest status within the range, so a withdrawal sent
 * as completed and then as reversed counts once, as reversed. Registrations count erased players too (their entity row
 * keeps its creation time, nothing identifying is read); their events are redacted, so they add no money.
 */
export async function businessFigures(db: Db, scope: AnalyticsScope, range: DayRange): Promise<BusinessFigures> {
  const result = await db.raw(
    `WITH ranged AS (
       SELECT e.id, e.entity_id, e.event_type, e.data, e.occurred_at, e.created_at FROM ${PLAYER_EVENTS} AND ${IN_RANGE} AND ${CURRENCY} = :currency
     ), tx AS (
       SELECT DISTINCT ON (coalesce(e.data->>'id', e.id::text)) e.entity_id, e.data
         FROM ranged e WHERE e.event_type = 'transaction'
        ORDER BY coalesce(e.data->>'id', e.id::text), e.occurred_at DESC, e.created_at DESC
     ), flows AS (
       SELECT ${flowColumns('deposit')}, ${flowColumns('withdrawal')} FROM tx e
     ), deposited AS (
       SELECT count(DISTINCT e.entity_id) AS depositing_players FROM ranged e WHERE ${IS_DEPOSIT}
     ), play AS (
       SELECT sum(${amountOf('bet_amount')} - ${amountOf('win_amount')}) AS ggr, count(DISTINCT e.entity_id) AS active_players
         FROM ranged e WHERE ${IS_GAME}
     ), firsts AS (
       ${firstDeposits(IN_RANGE)}
     ), ftd AS (
       SELECT f.amount FROM firsts f
        WHERE f.currency = :currency AND NOT EXISTS (SELECT 1 FROM ${DEPOSITS_OF('f.entity_id')} AND e.occurred_at < ${dayStart('start')})
     ), registered AS (
       SELECT r.id FROM entities r
        WHERE r.operator_id = :operatorId AND r.entity_type = 'player' AND r.created_at >= ${dayStart('start')} AND r.created_at < ${dayAfter('end')}
     ), converted AS (
       SELECT count(*) AS players FROM registered r
         JOIN LATERAL (SELECT ${CURRENCY} AS currency FROM ${DEPOSITS_OF('r.id')} AND e.occurred_at < ${dayAfter('end')}
                        ORDER BY e.occurred_at, e.created_at LIMIT 1) first ON first.currency = :currency
     )
     SELECT flows.*, deposited.*, play.*, (SELECT count(*) FROM registered) AS registrations, converted.players AS converted_players,
            (SELECT count(*) FROM ftd) AS ftd_count, (SELECT sum(amount) FROM ftd) AS ftd_amount
       FROM flows, deposited, play, converted`,
    { operatorId: scope.operatorId, reporting: scope.reportingCurrency, currency: scope.currency, start: range.start, end: range.end },
  );
  return figuresOf(result.rows[0] ?? {});
}

const round2 = (value: number): number => Math.round(value * 100) / 100;
const ratio = (part: number, whole: number, digits: number): number => (whole > 0 ? Number((part / whole).toFixed(digits)) : 0);

const flowOf = (row: Record<string, unknown>, type: 'deposit' | 'withdrawal'): FlowFigures => ({
  completed_amount: Number(row[`${type}_amount`] ?? 0),
  counts: Object.fromEntries(TRANSACTION_STATUSES.map((status) => [status, Number(row[`${type}_${status}`] ?? 0)])) as Record<TransactionStatus, number>,
});

/** The derived figures from their summed parts: ratios are 0 when their denominator is. */
export function figuresOf(row: Record<string, unknown>): BusinessFigures {
  const ggr = Number(row.ggr ?? 0);
  const registrations = Number(row.registrations ?? 0);
  const converted = Number(row.converted_players ?? 0);
  const active = Number(row.active_players ?? 0);
  const depositing = Number(row.depositing_players ?? 0);
  return {
    registrations,
    ftd_count: Number(row.ftd_count ?? 0),
    ftd_amount: Number(row.ftd_amount ?? 0),
    converted_players: converted,
    conversion_rate: ratio(converted, registrations, 4),
    deposits: flowOf(row, 'deposit'),
    withdrawals: flowOf(row, 'withdrawal'),
    ggr,
    active_players: active,
    depositing_players: depositing,
    arpu: active > 0 ? round2(ggr / active) : 0,
    arppu: depositing > 0 ? round2(ggr / depositing) : 0,
  };
}
