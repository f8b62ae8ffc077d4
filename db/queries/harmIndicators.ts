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

/** A `transaction` event that counts towards the deposit indicators: a deposit not failed, reversed or cancelled. */
const countedDeposit = (eventType: string, data: string) =>
  `(${eventType} = 'transaction' AND ${data}->>'type' = 'deposit' AND coalesce(${data}->>'status', 'completed') NOT IN ('failed', 'reversed', 'cancelled'))`;

const COUNTED_DEPOSIT = countedDeposit('d.event_type', 'd.data');

/** How many reversed withdrawals of one player within a window one check reads (see `fireHarmIndicators`). */
const REVERSALS_PER_PLAYER = 100;

/**
 * The SQL condition, over an event's type and data expressions, under which its outbox row is written pending even
 * when no automation hears it: the dispatcher checks every counted deposit for harm indicators before settling it.
 */
export const HARM_CANDIDATE = countedDeposit;

/** A recorded transaction event to check, with its player, as its outbox row names them. */
export interface CheckedEvent {
  event_id: string;
  entity_id: string;
  occurred_at: Date;
}

/**
 * The recorded transaction events behind claimed outbox rows (`seqs`, within the claim's own `operatorIds`): the
 * events `fireHarmIndicators` checks. Read outside the claiming transaction, which holds the rows but not the events.
 */
export async function transactionsAmongOutbox(db: Knex, seqs: string[], operatorIds: string[]): Promise<Array<CheckedEvent & { operator_id: string }>> {
  if (seqs.length === 0) return [];
  const result = await db.raw<{ rows: Array<CheckedEvent & { operator_id: string }> }>(
    `SELECT operator_id, source_event_id AS event_id, entity_id, occurred_at FROM outbox_events
      WHERE seq = ANY(?::bigint[]) AND operator_id = ANY(?::uuid[]) AND event = 'entity_event.transaction'
        AND source_event_id IS NOT NULL AND entity_id IS NOT NULL
      ORDER BY seq`,
    [seqs, operatorIds],
  );
  return result.rows;
}

/**
 * Fires the harm indicators the given newly recorded transaction events cross, in one statement, and answers the rows
 * it inserted. Windows are measured on recording time (`created_at`), and an event counts only when its own time
 * (`occurred_at`, `data.timestamp`) is inside the window too: an imported history of old deposits or reversals is
 * history, and fires nothing however many of it arrive at once.
 *
 * - `deposit_velocity`: the player's counted deposits recorded from the window before a new deposit on reach
 *   `deposits` (or their sum `amount`), and the indicator has not fired for the player within that window: once per
 *   crossing. Deposits recorded after the new one count too: concurrent deposits stamp `created_at` at their
 *   transactions' start but commit in any order, and whichever check takes the player's lock last must see them all.
 * - `deposit_after_reversed_withdrawal`: a deposit within the window after a reversed or cancelled withdrawal; once
 *   per withdrawal (its event id is the indicator's source).
 *
 * Bounded whatever a tenant sends, since every tenant's events wait on the dispatcher: the velocity window reads at most
 * `deposits` of a player's deposits (reaching that many fires anyway; fewer are all read, so the sum is exact), and
 * the reversal check the player's newest `REVERSALS_PER_PLAYER` reversed withdrawals in its window. An `amount` that
 * is not a JSON number counts as nothing (the template types it; a cast error here would fail the
 * dispatcher's whole pass). Each player is judged once per call, from their earliest deposit in it. The unique
 * (operator, indicator, source event) makes a repeated check fire nothing; an advisory lock per player (taken in id
 * order, held to the end of the caller's transaction) keeps two dispatchers checking deposits of one player at once
 * from both firing one crossing, while deposits of different players never wait for each other.
 */
export async function fireHarmIndicators(
  trx: Knex.Transaction,
  operatorId: string,
  events: CheckedEvent[],
  thresholds: HarmThresholds,
): Promise<FiredIndicator[]> {
  if (events.length === 0) return [];
  const players = [...new Set(events.map((event) => event.entity_id))].sort();
  await trx.raw(
    `SELECT pg_advisory_xact_lock(hashtext('harm:' || ?::text || ':' || player)) FROM unnest(?::text[]) WITH ORDINALITY AS p(player, ord) ORDER BY ord`,
    [operatorId, players],
  );
  // An event is recorded in the transaction that writes its outbox row, so both carry that transaction's start.
  const since = new Date(Math.min(...events.map((event) => event.occurred_at.getTime())));
  const result = await trx.raw<{ rows: FiredIndicator[] }>(
    `WITH new AS (
         SELECT d.id, d.entity_id, d.created_at FROM entity_events d
          WHERE d.operator_id = :operatorId AND d.id = ANY(:eventIds::text[]) AND d.created_at >= :since AND ${COUNTED_DEPOSIT}
            AND d.occurred_at > d.created_at - make_interval(mins => :windowMinutes::int)
       ), unfired AS (
         SELECT n.id, n.entity_id, n.created_at
           FROM (SELECT DISTINCT ON (entity_id) id, entity_id, created_at FROM new ORDER BY entity_id, created_at, id) n
          WHERE coalesce((SELECT max(h.fired_at) FROM harm_indicators h
                           WHERE h.operator_id = :operatorId AND h.entity_id = n.entity_id AND h.indicator = 'deposit_velocity'), '-infinity')
                <= n.created_at - make_interval(mins => :windowMinutes::int)
       ), velocity AS (
         SELECT 'deposit_velocity'::text AS indicator, n.entity_id, n.id AS source_event_id,
                jsonb_build_object('eventId', n.id, 'deposits', w.deposits, 'amount', w.total,
                                   'windowMinutes', :windowMinutes::int, 'thresholdDeposits', :deposits::int, 'thresholdAmount', :amount::numeric) AS details
           FROM unfired n
           CROSS JOIN LATERAL (
             SELECT count(*) AS deposits, coalesce(sum(CASE WHEN jsonb_typeof(d.data->'amount') = 'number' THEN (d.data->>'amount')::numeric END), 0) AS total
               FROM (SELECT d.data FROM entity_events d
                      WHERE d.operator_id = :operatorId AND d.entity_id = n.entity_id AND ${COUNTED_DEPOSIT}
                        AND d.created_at > n.created_at - make_interval(mins => :windowMinutes::int)
                        AND d.occurred_at > n.created_at - make_interval(mins => :windowMinutes::int)
                      LIMIT :deposits::int) d
           ) w
          WHERE w.deposits >= :deposits::int OR (:amount::numeric IS NOT NULL AND w.total >= :amount::numeric)
       ), players AS (
         SELECT entity_id, min(created_at) AS first_at, max(created_at) AS last_at FROM new GROUP BY entity_id
       ), reversal AS (
         SELECT 'deposit_after_reversed_withdrawal'::text AS indicator, p.entity_id, r.id AS source_event_id,
                jsonb_build_object('eventId', n.id, 'withdrawalEventId', r.id, 'withdrawalStatus', r.data->>'status',
                                   'windowMinutes', :reversedMinutes::int) AS details
           FROM players p
           CROSS JOIN LATERAL (
             SELECT r.id, r.data, r.created_at FROM entity_events r
              WHERE r.operator_id = :operatorId AND r.entity_id = p.entity_id AND r.event_type = 'transaction'
                AND r.data->>'type' = 'withdrawal' AND r.data->>'status' IN ('reversed', 'cancelled')
                AND r.created_at >= p.first_at - make_interval(mins => :reversedMinutes::int) AND r.created_at <= p.last_at
                AND r.occurred_at >= p.first_at - make_interval(mins => :reversedMinutes::int)
              ORDER BY r.created_at DESC LIMIT ${REVERSALS_PER_PLAYER}
           ) r
           CROSS JOIN LATERAL (
             SELECT n.id FROM new n
              WHERE n.entity_id = p.entity_id AND n.created_at >= r.created_at AND n.created_at <= r.created_at + make_interval(mins => :reversedMinutes::int)
              ORDER BY n.created_at, n.id LIMIT 1
           ) n
       ), fired AS (
         INSERT INTO harm_indicators (operator_id, entity_id, indicator, source_event_id, details)
         SELECT :operatorId, entity_id, indicator, source_event_id, details FROM (SELECT * FROM velocity UNION ALL SELECT * FROM reversal) f
         ON CONFLICT (operator_id, indicator, source_event_id) DO NOTHING
         RETURNING indicator, entity_id, source_event_id, details, fired_at
       )
       SELECT f.*, e.external_id, e.entity_type FROM fired f
        CROSS JOIN LATERAL (SELECT external_id, entity_type FROM entities WHERE operator_id = :operatorId AND id = f.entity_id LIMIT 1) e`,
    {
      operatorId,
      eventIds: events.map((event) => event.event_id),
      since,
      deposits: thresholds.velocity.deposits,
      amount: thresholds.velocity.amount,
      windowMinutes: thresholds.velocity.windowMinutes,
      reversedMinutes: thresholds.reversedWindowMinutes,
    },
  );
  return result.rows;
}
