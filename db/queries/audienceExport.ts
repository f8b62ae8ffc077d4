import type { Db } from '../knex';
import { amountOf, IS_DEPOSIT, IS_GAME } from './analyticsSql';

/** One exported member: the external id and the figures audiences are defined by, never a field of the player's data. */
export interface ExportRow {
  external_id: string;
  entered_at: string;
  ftd_day: string | null;
  deposit_count: number;
  last_activity_day: string | null;
  ggr: string;
}

const events = (kind: string) =>
  `FROM entity_events e WHERE e.operator_id = m.operator_id AND e.entity_id = m.entity_id AND e.data->'_redacted' IS NULL AND (${kind})`;
const day = (timestamp: string) => `to_char(${timestamp} AT TIME ZONE 'UTC', 'YYYY-MM-DD')`;

/**
 * The members after `afterEntityId` (keyset, entity id order), `limit` of them, with their figures: first completed
 * deposit's day, completed deposits, last activity day (round or completed deposit) and GGR to date in `currency`.
 */
export async function exportPage(
  db: Db,
  scope: { operatorId: string; audienceId: string; currency: string; reportingCurrency: string },
  afterEntityId: string,
  limit: number,
): Promise<Array<ExportRow & { entity_id: string }>> {
  const result = await db.raw<{ rows: Array<ExportRow & { entity_id: string }> }>(
    `SELECT m.entity_id, en.external_id, to_char(m.entered_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS entered_at,
            (SELECT ${day('min(e.occurred_at)')} ${events(IS_DEPOSIT)}) AS ftd_day,
            (SELECT count(*)::int ${events(IS_DEPOSIT)}) AS deposit_count,
            (SELECT ${day('max(e.occurred_at)')} ${events(`(${IS_GAME}) OR (${IS_DEPOSIT})`)}) AS last_activity_day,
            (SELECT coalesce(sum(${amountOf('bet_amount')} - ${amountOf('win_amount')}), 0)::text ${events(IS_GAME)}
                AND coalesce(nullif(e.data->>'currency', ''), CAST(? AS text)) = ?) AS ggr
       FROM audience_members m
       JOIN entities en ON en.id = m.entity_id AND en.operator_id = m.operator_id AND en.deleted_at IS NULL
      WHERE m.operator_id = ? AND m.audience_id = ? AND m.entity_id > ?
      ORDER BY m.entity_id LIMIT ?`,
    [scope.reportingCurrency, scope.currency, scope.operatorId, scope.audienceId, afterEntityId, limit],
  );
  return result.rows;
}
