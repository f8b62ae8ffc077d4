import { GATE_RULES, type GateRule } from '../../core/compliance/gate';
import { inTurn } from './analyticsRead';
import type { DayRange } from '../../core/analyticsParams';
import type { Db } from '../knex';
import { TOTAL_PLAYERS } from './analyticsPlayerCount';
import { dayAfter, dayStart } from './analyticsSql';
import { HARM_INDICATORS, type HarmIndicator } from './harmIndicators';

export interface ProtectedPlayers {
  /** Live players (not erased). */
  total: number;
  self_excluded: number;
  cooling_off: number;
  /** Players whose entity `status` is `excluded` (spec 2.13). */
  status_excluded: number;
  /** Players under at least one of the three above. */
  protected: number;
  with_deposit_limit: number;
  with_session_limit: number;
  with_any_limit: number;
}

export interface SaferGamblingFigures {
  players: ProtectedPlayers;
  marketing: { decided: number; performed: number; suppressed: number; suppressed_by_rule: Record<GateRule, number> };
  harm_indicators: { fired: number; players: number; by_indicator: Record<HarmIndicator, number> };
}

const flag = (key: string) => `c.value->'${key}' = 'true'::jsonb`;
const positive = (key: string) => `(jsonb_typeof(c.value->'${key}') = 'number' AND (c.value->>'${key}')::numeric > 0)`;

/**
 * Who is protected or under a limit now (binding `operatorId`): the live players with a `compliance` state and the
 * live players whose `status` is `excluded`, each read through its partial index (migration 20261216090100), never
 * every player; `total` is the kept player count.
 */
export const PLAYERS_NOW = `WITH compliance AS (
    SELECT c.entity_id, c.value FROM entity_states c
      JOIN entities en ON en.id = c.entity_id AND en.operator_id = c.operator_id AND en.entity_type = 'player' AND en.deleted_at IS NULL
     WHERE c.operator_id = :operatorId AND c.state_key = 'compliance'
  ), excluded AS (
    SELECT en.id AS entity_id FROM entities en
     WHERE en.operator_id = :operatorId AND en.entity_type = 'player' AND en.deleted_at IS NULL AND en.data->>'status' = 'excluded'
  )
  SELECT ${TOTAL_PLAYERS} AS total,
         count(*) FILTER (WHERE ${flag('selfExcluded')}) AS self_excluded,
         count(*) FILTER (WHERE ${flag('coolingOff')}) AS cooling_off,
         count(x.entity_id) AS status_excluded,
         count(*) FILTER (WHERE ${flag('selfExcluded')} OR ${flag('coolingOff')} OR x.entity_id IS NOT NULL) AS protected,
         count(*) FILTER (WHERE ${positive('depositLimit')}) AS with_deposit_limit,
         count(*) FILTER (WHERE ${positive('sessionLimit')}) AS with_session_limit,
         count(*) FILTER (WHERE ${positive('depositLimit')} OR ${positive('sessionLimit')}) AS with_any_limit
    FROM compliance c FULL JOIN excluded x ON x.entity_id = c.entity_id`;

/**
 * The operator's safer-gambling figures (docs/analytics.md "Safer gambling"): who is protected or under a limit now
 * (the `compliance` state and the entity `status`, as the gate reads them), and over `range` the marketing decisions
 * the gate took (by when they were recorded) and the harm indicators fired (by when they fired). Every group is a
 * fixed list of the platform's own names, so no stored text becomes a key.
 */
export async function saferGamblingFigures(db: Db, operatorId: string, range: DayRange): Promise<SaferGamblingFigures> {
  const bindings = { operatorId, start: range.start, end: range.end };
  const [players, marketing, harm] = await inTurn(
    () => db.raw(PLAYERS_NOW, bindings),
    () =>
      db.raw(
        `SELECT rule, count(*) AS decisions FROM marketing_evidence
        WHERE operator_id = :operatorId AND recorded_at >= ${dayStart('start')} AND recorded_at < ${dayAfter('end')} AND rule = ANY(:rules)
        GROUP BY rule`,
        { ...bindings, rules: [...GATE_RULES, 'allowed'] },
      ),
    () =>
      db.raw(
        `SELECT indicator, count(*) AS fired, count(DISTINCT entity_id) AS players, grouping(indicator) AS total
         FROM harm_indicators
        WHERE operator_id = :operatorId AND fired_at >= ${dayStart('start')} AND fired_at < ${dayAfter('end')} AND indicator = ANY(:indicators)
        GROUP BY ROLLUP (indicator)`,
        { ...bindings, indicators: [...HARM_INDICATORS] },
      ),
  );
  const row = players.rows[0] as Record<string, string>;
  const decisions = new Map((marketing.rows as Array<{ rule: string; decisions: string }>).map((entry) => [entry.rule, Number(entry.decisions)]));
  const harmRows = harm.rows as Array<{ indicator: string | null; fired: string; players: string; total: number }>;
  const all = harmRows.find((entry) => entry.total === 1);
  const byRule = Object.fromEntries(GATE_RULES.map((rule) => [rule, decisions.get(rule) ?? 0])) as Record<GateRule, number>;
  const suppressed = Object.values(byRule).reduce((sum, count) => sum + count, 0);
  return {
    players: {
      total: Number(row.total),
      self_excluded: Number(row.self_excluded),
      cooling_off: Number(row.cooling_off),
      status_excluded: Number(row.status_excluded),
      protected: Number(row.protected),
      with_deposit_limit: Number(row.with_deposit_limit),
      with_session_limit: Number(row.with_session_limit),
      with_any_limit: Number(row.with_any_limit),
    },
    marketing: { decided: suppressed + (decisions.get('allowed') ?? 0), performed: decisions.get('allowed') ?? 0, suppressed, suppressed_by_rule: byRule },
    harm_indicators: {
      fired: Number(all?.fired ?? 0),
      players: Number(all?.players ?? 0),
      by_indicator: Object.fromEntries(
        HARM_INDICATORS.map((indicator) => [indicator, Number(harmRows.find((entry) => entry.total === 0 && entry.indicator === indicator)?.fired ?? 0)]),
      ) as Record<HarmIndicator, number>,
    },
  };
}
