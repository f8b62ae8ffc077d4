import type { Knex } from 'knex';
import { predicatesOf, type AudienceDefinition, type AudiencePredicate, type Comparison } from '../../core/audienceDefinition';
import { amountOf, IS_DEPOSIT, IS_GAME } from './analyticsSql';

/** SQL text with its positional bindings, in order. */
export interface Compiled {
  sql: string;
  bindings: Knex.Value[];
}

const OPERATORS: Record<Comparison, string> = { eq: '=', ne: '<>', lt: '<', lte: '<=', gt: '>', gte: '>=' };

/** Live events of the player `en` (alias `e`), redacted ones never: `kind` is one of analyticsSql's event conditions. */
const playerEvents = (kind: string) =>
  `FROM entity_events e WHERE e.operator_id = en.operator_id AND e.entity_id = en.id AND e.data->'_redacted' IS NULL AND (${kind})`;
const CURRENCY = `coalesce(nullif(e.data->>'currency', ''), p.reporting)`;
const utcDay = (timestamp: string) => `(${timestamp} AT TIME ZONE 'UTC')::date`;
/** Occurrence within the last `days` UTC days, today included (binding: days). */
const WINDOW = `AND e.occurred_at >= (p.today - CAST(? AS int) + 1)::timestamp AT TIME ZONE 'UTC' AND e.occurred_at < (p.today + 1)::timestamp AT TIME ZONE 'UTC'`;

function compare(figure: string, figureBindings: Knex.Value[], op: Comparison, value: Knex.Value): Compiled {
  return { sql: `(${figure}) ${OPERATORS[op]} ?`, bindings: [...figureBindings, value] };
}

function stateSql(predicate: Extract<AudiencePredicate, { field: 'state' }>): Compiled {
  const row = `SELECT 1 FROM entity_states s WHERE s.operator_id = en.operator_id AND s.entity_id = en.id AND s.state_key = ?`;
  const has = (condition: string, bindings: Knex.Value[]): Compiled => ({ sql: `EXISTS (${row}${condition})`, bindings: [predicate.key, ...bindings] });
  const not = (compiled: Compiled): Compiled => ({ sql: `NOT ${compiled.sql}`, bindings: compiled.bindings });
  const json = (value: unknown) => JSON.stringify(value);
  const list = Array.isArray(predicate.value) ? predicate.value.map(json) : [];
  switch (predicate.op) {
    case 'exists':
      return has('', []);
    case 'not_exists':
      return not(has('', []));
    case 'eq':
      return has(' AND s.value = CAST(? AS jsonb)', [json(predicate.value)]);
    case 'ne':
      return not(has(' AND s.value = CAST(? AS jsonb)', [json(predicate.value)]));
    case 'in':
      return has(' AND s.value = ANY(CAST(? AS jsonb[]))', [list]);
    case 'not_in':
      return not(has(' AND s.value = ANY(CAST(? AS jsonb[]))', [list]));
    default:
      // The cast only under CASE: PostgreSQL does not promise to test the type before casting in `a AND b`.
      return has(` AND CASE WHEN jsonb_typeof(s.value) = 'number' THEN (s.value #>> '{}')::numeric END ${OPERATORS[predicate.op]} ?`, [
        Number(predicate.value),
      ]);
  }
}

/** One predicate as a boolean over the candidate player `en` and the parameters `p` (`today`, `reporting`). */
export function predicateSql(predicate: AudiencePredicate): Compiled {
  switch (predicate.field) {
    case 'ftd_days_ago':
      return compare(`p.today - (SELECT ${utcDay('min(e.occurred_at)')} ${playerEvents(IS_DEPOSIT)})`, [], predicate.op, predicate.value);
    case 'deposit_count':
      return predicate.days === undefined
        ? compare(`SELECT count(*) ${playerEvents(IS_DEPOSIT)}`, [], predicate.op, predicate.value)
        : compare(`SELECT count(*) ${playerEvents(IS_DEPOSIT)} ${WINDOW}`, [predicate.days], predicate.op, predicate.value);
    case 'deposit_amount': {
      const sum = `SELECT coalesce(sum(${amountOf('amount')}), 0) ${playerEvents(IS_DEPOSIT)} AND ${CURRENCY} = ?`;
      return predicate.days === undefined
        ? compare(sum, [predicate.currency], predicate.op, predicate.value)
        : compare(`${sum} ${WINDOW}`, [predicate.currency, predicate.days], predicate.op, predicate.value);
    }
    case 'last_activity_days_ago':
      return compare(
        `p.today - ${utcDay(`coalesce((SELECT max(e.occurred_at) ${playerEvents(`(${IS_GAME}) OR (${IS_DEPOSIT})`)}), en.created_at)`)}`,
        [],
        predicate.op,
        predicate.value,
      );
    case 'ggr':
      return compare(
        `SELECT coalesce(sum(${amountOf('bet_amount')} - ${amountOf('win_amount')}), 0) ${playerEvents(IS_GAME)} AND ${CURRENCY} = ?`,
        [predicate.currency],
        predicate.op,
        predicate.value,
      );
    case 'state':
      return stateSql(predicate);
    case 'country':
      return predicate.op === 'in'
        ? { sql: `upper(en.data->>'country') = ANY(CAST(? AS text[]))`, bindings: [predicate.value] }
        : { sql: `coalesce(upper(en.data->>'country') <> ALL(CAST(? AS text[])), true)`, bindings: [predicate.value] };
  }
}

/**
 * The players of the operator who match the definition on `today` (UTC): among `candidates` (entity ids) when given,
 * else all of them. Live players only (erased ones never match). Values are bindings, never text of the statement.
 */
export function matchingSql(
  definition: AudienceDefinition,
  scope: { operatorId: string; reportingCurrency: string; today: string; candidates: string[] | null },
): Compiled {
  const { combine, predicates } = predicatesOf(definition);
  const parts = predicates.map(predicateSql);
  const condition = parts.map((part) => `coalesce(${part.sql}, false)`).join(combine === 'all' ? ' AND ' : ' OR ');
  return {
    sql: `SELECT en.id AS entity_id
            FROM entities en CROSS JOIN (SELECT CAST(? AS date) AS today, CAST(? AS text) AS reporting) p
           WHERE en.operator_id = ? AND en.entity_type = 'player' AND en.deleted_at IS NULL
             ${scope.candidates ? 'AND en.id = ANY(CAST(? AS text[]))' : ''}
             AND (${condition})`,
    bindings: [
      scope.today,
      scope.reportingCurrency,
      scope.operatorId,
      ...(scope.candidates ? [scope.candidates] : []),
      ...parts.flatMap((part) => part.bindings),
    ],
  };
}
