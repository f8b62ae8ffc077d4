/** SQL fragments shared by the raw-table analytics queries (alias `e` for entity_events). Named knex bindings. */

/** A JSON number field of the event as numeric, 0 when absent or not a number. */
export const amountOf = (field: string): string => `CASE WHEN jsonb_typeof(e.data->'${field}') = 'number' THEN (e.data->>'${field}')::numeric ELSE 0 END`;

export const IS_DEPOSIT = `e.event_type = 'transaction' AND e.data->>'type' = 'deposit' AND coalesce(e.data->>'status', 'completed') = 'completed'`;
export const IS_WITHDRAWAL = `e.event_type = 'transaction' AND e.data->>'type' = 'withdrawal' AND coalesce(e.data->>'status', 'completed') = 'completed'`;
export const IS_GAME = `e.event_type = 'game_activity'`;
/** A completed bonus: its `amount` is bonus cost (NGR, docs/analytics.md). */
export const IS_BONUS = `e.event_type = 'transaction' AND e.data->>'type' = 'bonus' AND coalesce(e.data->>'status', 'completed') = 'completed'`;
/** The event's currency; events without one count as the reporting currency (binding `reporting`). */
export const CURRENCY = `coalesce(nullif(e.data->>'currency', ''), :reporting)`;

/** Events of the operator's live players (binding `operatorId`): erased players and redacted events never count. */
export const PLAYER_EVENTS = `entity_events e
  JOIN entities en ON en.id = e.entity_id AND en.operator_id = e.operator_id AND en.deleted_at IS NULL AND en.entity_type = 'player'
  WHERE e.operator_id = :operatorId AND e.data->'_redacted' IS NULL`;

/** The event's own time (`data.timestamp` when it carried one, else its arrival): what every figure is dated by. */
export const OCCURRED = 'e.occurred_at';

/** The first instant of the UTC day named by a `YYYY-MM-DD` binding. */
export const dayStart = (binding: string): string => `CAST(:${binding} AS date)::timestamp AT TIME ZONE 'UTC'`;
/** The first instant after the UTC day named by a binding: ranges are inclusive of their last day. */
export const dayAfter = (binding: string): string => `(CAST(:${binding} AS date) + 1)::timestamp AT TIME ZONE 'UTC'`;

/** Occurrence time within the inclusive UTC day range (bindings `start`, `end`). */
export const IN_RANGE = `${OCCURRED} >= ${dayStart('start')} AND ${OCCURRED} < ${dayAfter('end')}`;

/**
 * Each player's first completed deposit among the live events matching `where` (earliest occurrence, then arrival, then id),
 * with `e.entity_id`, `e.occurred_at`, its `amount`, its `currency` and any `columns`. With `where` bounding only the
 * end, that is the first deposit ever (as of that end), the FTD of docs/analytics.md.
 */
export const firstDeposits = (where: string, columns = ''): string =>
  `SELECT DISTINCT ON (e.entity_id) e.entity_id, e.occurred_at, ${amountOf('amount')} AS amount, ${CURRENCY} AS currency${columns ? `, ${columns}` : ''}
     FROM ${PLAYER_EVENTS} AND ${IS_DEPOSIT} AND ${where}
    ORDER BY e.entity_id, e.occurred_at, e.created_at, e.id`;

/** Every bucket start of the range (bindings `unit` = day/week/month, `start`, `end`), so empty buckets show as zero rows. */
export const BUCKETS = `SELECT b::date AS bucket
  FROM generate_series(date_trunc(:unit, CAST(:start AS date)::timestamp), CAST(:end AS date)::timestamp, CAST('1 ' || :unit AS interval)) b`;

export const bucketOf = (dayExpression: string): string => `date_trunc(:unit, (${dayExpression})::timestamp)::date`;
