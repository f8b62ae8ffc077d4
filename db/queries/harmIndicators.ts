import type { Knex } from 'knex';

/** The built-in harm indicators (docs/compliance.md "Harm indicators"); each fires the internal event `harm.<name>`. */
export const HARM_INDICATORS = ['deposit_velocity', 'deposit_after_reversed_withdrawal'] as const;
export type HarmIndicator = (typeof HARM_INDICATORS)[number];

export interface HarmThresholds {
  velocity: { deposits: number; amount: number | null; windowMinutes: number };
  reversedWindowMinutes: number;
}

export interface FiredIndicator {
  indicator: HarmIndicator;
  entity_id: string;
  external_id: string;
  entity_type: string;
  source_event_id: string;
  details: Record<string, unknown>;
  fired_at: Date;
}

const COUNTED_DEPOSIT = `d.event_type = 'transaction' AND d.data->>'type' = 'deposit' AND coalesce(d.data->>'status', 'completed') NOT IN ('failed', 'reversed', 'cancelled')`;

/**
 * Fires the harm indicators the given newly recorded transaction events cross, in one statement, and answers the rows
 * it inserted. Windows are measured on recording time (`created_at`).
 *
 * - `deposit_velocity`: the player's counted deposits recorded from the window before a new deposit on reach
 *   `deposits` (or their sum `amount`), and the indicator has not fired for the player within that window: once per
 *   crossing. Deposits recorded after the new one count too: concurrent deposits stamp `created_at` at their
 *   transactions' start but commit in any order, and the last to take the player's lock must see them all.
 * - `deposit_after_reversed_withdrawal`: a deposit within the window after a reversed or cancelled withdrawal; once
 *   per withdrawal (its event id is the indicator's source).
 *
 * The unique (operator, indicator, source event) makes a repeated pass fire nothing; an advisory lock per player
 * (taken in id order, held to the end of the caller's transaction) keeps two concurrent ingests from both firing one
 * crossing, while deposits of different players never wait for each other.
 */
export async function fireHarmIndicators(trx: Knex.Transaction, operatorId: string, eventIds: string[], thresholds: HarmThresholds): Promise<FiredIndicator[]> {
  if (eventIds.length === 0) return [];
  await trx.raw(
    `SELECT pg_advisory_xact_lock(hashtext('harm:' || :operatorId::text || ':' || players.entity_id))
       FROM (SELECT DISTINCT entity_id FROM entity_events WHERE operator_id = :operatorId AND id = ANY(:eventIds::text[]) ORDER BY entity_id) players`,
    { operatorId, eventIds },
  );
  const result = await trx.raw<{ rows: FiredIndicator[] }>(
    `WITH new AS (
         SELECT d.id, d.entity_id, d.created_at FROM entity_events d
          WHERE d.operator_id = :operatorId AND d.id = ANY(:eventIds::text[]) AND ${COUNTED_DEPOSIT}
       ), velocity AS (
         SELECT DISTINCT ON (n.entity_id) 'deposit_velocity'::text AS indicator, n.entity_id, n.id AS source_event_id,
                jsonb_build_object('eventId', n.id, 'deposits', w.deposits, 'amount', w.total,
                                   'windowMinutes', :windowMinutes::int, 'thresholdDeposits', :deposits::int, 'thresholdAmount', :amount::numeric) AS details
           FROM new n
           CROSS JOIN LATERAL (
             SELECT count(*) AS deposits, coalesce(sum((d.data->>'amount')::numeric), 0) AS total FROM entity_events d
              WHERE d.operator_id = :operatorId AND d.entity_id = n.entity_id AND ${COUNTED_DEPOSIT}
                AND d.created_at > n.created_at - make_interval(mins => :windowMinutes::int)
           ) w
          WHERE (w.deposits >= :deposits::int OR (:amount::numeric IS NOT NULL AND w.total >= :amount::numeric))
            AND NOT EXISTS (SELECT 1 FROM harm_indicators h
                             WHERE h.operator_id = :operatorId AND h.entity_id = n.entity_id AND h.indicator = 'deposit_velocity'
                               AND h.fired_at > n.created_at - make_interval(mins => :windowMinutes::int))
          ORDER BY n.entity_id, n.created_at, n.id
       ), reversal AS (
         SELECT DISTINCT ON (r.id) 'deposit_after_reversed_withdrawal'::text AS indicator, n.entity_id, r.id AS source_event_id,
                jsonb_build_object('eventId', n.id, 'withdrawalEventId', r.id, 'withdrawalStatus', r.data->>'status',
                                   'windowMinutes', :reversedMinutes::int) AS details
           FROM new n
           JOIN entity_events r ON r.operator_id = :operatorId AND r.entity_id = n.entity_id AND r.event_type = 'transaction'
            AND r.data->>'type' = 'withdrawal' AND r.data->>'status' IN ('reversed', 'cancelled')
            AND r.created_at >= n.created_at - make_interval(mins => :reversedMinutes::int) AND r.created_at <= n.created_at
          ORDER BY r.id, n.created_at, n.id
       ), fired AS (
         INSERT INTO harm_indicators (operator_id, entity_id, indicator, source_event_id, details)
         SELECT :operatorId, entity_id, indicator, source_event_id, details FROM (SELECT * FROM velocity UNION ALL SELECT * FROM reversal) f
         ON CONFLICT (operator_id, indicator, source_event_id) DO NOTHING
         RETURNING indicator, entity_id, source_event_id, details, fired_at
       )
       SELECT f.*, e.external_id, e.entity_type FROM fired f JOIN entities e ON e.operator_id = :operatorId AND e.id = f.entity_id`,
    {
      operatorId,
      eventIds,
      deposits: thresholds.velocity.deposits,
      amount: thresholds.velocity.amount,
      windowMinutes: thresholds.velocity.windowMinutes,
      reversedMinutes: thresholds.reversedWindowMinutes,
    },
  );
  return result.rows;
}
