import type { Db } from '../knex';
import { RETENTION_DAYS } from './analyticsCohorts';
import { putMembersBack, takeMembersOut } from './analyticsRollupCohorts';
import { foldRegionFtds } from './analyticsRollupRegions';
import { amountOf, IS_BONUS } from './analyticsSql';

/**
 * The first-deposit part of a rollup batch (docs/analytics.md "Cohorts"): each player's first completed deposit ever
 * (`analytics_first_deposits`, one row per player), with `pre_ftd_ggr` and `pre_ftd_bonus`, the GGR of their rounds
 * and the cost of their completed bonuses in the FTD's currency on the FTD's day before it — what a cohort's GGR and
 * bonus cost leave out of that day's player-day row; and the member's figures the cohort days sum (last activity,
 * retention days, GGR and bonus cost from the FTD's day; analyticsRollupCohorts.ts), so a cohort read never reads the
 * player-days or the members. Runs on `analytics_batch`
 * (analyticsRollupBatch.ts), inside the batch's transaction, after the batch's player-days are folded.
 */

/**
 * The batch's earliest counted deposit per player goes in when the player has none, or replaces a later one (earliest
 * `occurred_at`, then arrival, then id: the raw path's order), so a late or out-of-order first deposit wins exactly
 * once and a later one never moves it. The players whose FTD was set are listed for the recount of their day, with
 * the FTD's currency and day before (null for a first FTD: the statement's own reads see the rows as they were) and
 * now, for {@link CONVERSIONS} and the splits' FTDs (`foldRegionFtds`, analyticsRollupRegions.ts).
 */
const FIRSTS = `WITH firsts AS (
    SELECT DISTINCT ON (operator_id, entity_id) operator_id, entity_id, id, occurred_at, created_at, day, currency, deposit
      FROM analytics_batch WHERE counted AND is_deposit ORDER BY operator_id, entity_id, occurred_at, created_at, id
  ), chosen AS (
    INSERT INTO analytics_first_deposits AS t (operator_id, entity_id, event_id, occurred_at, created_at, day, currency, amount, pre_ftd_ggr, pre_ftd_bonus)
    SELECT operator_id, entity_id, id, occurred_at, created_at, day, currency, deposit, 0, 0 FROM firsts
    ON CONFLICT (operator_id, entity_id) DO UPDATE
      SET event_id = excluded.event_id, occurred_at = excluded.occurred_at, created_at = excluded.created_at, day = excluded.day,
          currency = excluded.currency, amount = excluded.amount, pre_ftd_ggr = 0, pre_ftd_bonus = 0
      WHERE (excluded.occurred_at, excluded.created_at, excluded.event_id) < (t.occurred_at, t.created_at, t.event_id)
    RETURNING operator_id, entity_id, currency, day
  )
  INSERT INTO analytics_ftd_set
  SELECT c.operator_id, c.entity_id, o.currency, o.day, c.currency, c.day
    FROM chosen c LEFT JOIN analytics_first_deposits o ON o.operator_id = c.operator_id AND o.entity_id = c.entity_id`;

/** A player's (alias `p`) registration day: a primary-key probe, so the cost follows the players moved, never the players' table. */
const REGISTERED_DAY = `(SELECT (en.created_at AT TIME ZONE 'UTC')::date FROM entities en WHERE en.id = p.entity_id AND en.operator_id = p.operator_id)`;

/**
 * A player whose FTD was set moves from their old FTD's currency and day (if any) to the new ones, under their
 * registration day (`analytics_conversions`, migration 20261221090000): `/business`'s converted players. A player
 * whose row is gone (only an operator's deletion removes one, and its rollups go with it) is skipped.
 */
const CONVERSIONS = `INSERT INTO analytics_conversions AS t (operator_id, registered_day, currency, ftd_day, players)
  SELECT p.operator_id, p.registered_day, x.currency, x.day, sum(x.sign)
    FROM (SELECT p.*, ${REGISTERED_DAY} AS registered_day FROM analytics_ftd_set p) p
    CROSS JOIN LATERAL (VALUES (p.old_currency, p.old_day, -1), (p.currency, p.day, 1)) x(currency, day, sign)
   WHERE x.currency IS NOT NULL AND p.registered_day IS NOT NULL
   GROUP BY 1, 2, 3, 4
  ON CONFLICT (operator_id, registered_day, currency, ftd_day) DO UPDATE SET players = t.players + excluded.players`;

/**
 * A player whose FTD was set: their rounds and completed bonuses on the FTD's day before it, among the events read so
 * far (this batch and the ones before it, `(xid, id)` ≤ the batch's end — a later batch adds its own below, so none
 * counts twice). Read through `entity_events_entity_created_idx` from a day before the FTD's day: an event's arrival is
 * never more than 5 minutes before its occurrence (ingest refuses a timestamp further ahead), so no event of that day
 * arrived earlier.
 */
const RECOUNT = `UPDATE analytics_first_deposits t SET (pre_ftd_ggr, pre_ftd_bonus) = (
    SELECT coalesce(sum(${amountOf('bet_amount')} - ${amountOf('win_amount')}) FILTER (WHERE e.event_type = 'game_activity'), 0),
           coalesce(sum(${amountOf('amount')}) FILTER (WHERE ${IS_BONUS}), 0)
      FROM entity_events e
     WHERE e.operator_id = t.operator_id AND e.entity_id = t.entity_id
       AND e.created_at >= t.day::timestamp AT TIME ZONE 'UTC' - interval '1 day'
       AND e.occurred_at >= t.day::timestamp AT TIME ZONE 'UTC' AND e.occurred_at < t.occurred_at
       AND (e.event_type = 'game_activity' OR (${IS_BONUS})) AND e.data->'_redacted' IS NULL
       AND (coalesce(e.ingest_xid, 0), e.id) <= (CAST(:endXid AS bigint), CAST(:endId AS text))
       AND coalesce(nullif(e.data->>'currency', ''),
                    (SELECT trim(s.reporting_currency) FROM operator_settings s WHERE s.operator_id = t.operator_id), 'EUR') = t.currency)
  FROM analytics_ftd_set n WHERE t.operator_id = n.operator_id AND t.entity_id = n.entity_id`;

/** A player whose FTD stands: this batch's rounds and bonuses on its day before it (late ones, bonus play) join the pre-FTD sums. */
const EARLIER_ROUNDS = `UPDATE analytics_first_deposits t SET pre_ftd_ggr = t.pre_ftd_ggr + r.ggr, pre_ftd_bonus = t.pre_ftd_bonus + r.bonus
  FROM (SELECT b.operator_id, b.entity_id, sum(b.bet - b.win) AS ggr, sum(b.bonus) AS bonus
          FROM analytics_batch b JOIN analytics_first_deposits f ON f.operator_id = b.operator_id AND f.entity_id = b.entity_id
         WHERE b.counted AND (b.is_game OR b.is_bonus) AND b.day = f.day AND b.occurred_at < f.occurred_at AND b.currency = f.currency
           AND NOT EXISTS (SELECT 1 FROM analytics_ftd_set n WHERE n.operator_id = b.operator_id AND n.entity_id = b.entity_id)
         GROUP BY 1, 2) r
  WHERE t.operator_id = r.operator_id AND t.entity_id = r.entity_id`;

/** The member's figures a cohort reads, kept on the row (docs/analytics.md "Cohorts"). */
const MEMBER_COLUMNS = ['last_active_day', ...RETENTION_DAYS.map((n) => `retained_d${n}`), 'ggr_from_ftd_day', 'bonus_from_ftd_day'].join(', ');
/** Whether a row (alias) is cohort activity: a game round or a completed deposit. */
const DAY_ACTIVE = `(a.played OR a.deposited)`;
const BATCH_ACTIVE = `(b.is_game OR b.is_deposit)`;

/**
 * A player whose FTD was set: their figures from every player-day in the FTD's currency (this batch's included — the
 * batch's player-days are folded before this part): last activity, activity on FTD day + N, GGR and bonus cost from
 * the FTD's day on (the part before the FTD on its day is `pre_ftd_ggr`/`pre_ftd_bonus`).
 */
const MEMBER_RECOUNT = `UPDATE analytics_first_deposits t SET (${MEMBER_COLUMNS}) = (
    SELECT max(a.day) FILTER (WHERE ${DAY_ACTIVE}),
           ${RETENTION_DAYS.map((n) => `coalesce(bool_or(a.day = t.day + ${n} AND ${DAY_ACTIVE}), false)`).join(', ')},
           coalesce(sum(a.ggr) FILTER (WHERE a.day >= t.day), 0), coalesce(sum(a.bonus) FILTER (WHERE a.day >= t.day), 0)
      FROM analytics_player_days a WHERE a.operator_id = t.operator_id AND a.entity_id = t.entity_id AND a.currency = t.currency)
  FROM analytics_ftd_set n WHERE t.operator_id = n.operator_id AND t.entity_id = n.entity_id`;

/** A player whose FTD stands: this batch's events in its currency join their figures. */
const MEMBER_DAYS = `UPDATE analytics_first_deposits t
    SET last_active_day = greatest(t.last_active_day, r.last_active_day),
        ${RETENTION_DAYS.map((n) => `retained_d${n} = t.retained_d${n} OR r.d${n}`).join(', ')},
        ggr_from_ftd_day = t.ggr_from_ftd_day + r.ggr, bonus_from_ftd_day = t.bonus_from_ftd_day + r.bonus
  FROM (SELECT b.operator_id, b.entity_id, max(b.day) FILTER (WHERE ${BATCH_ACTIVE}) AS last_active_day,
               ${RETENTION_DAYS.map((n) => `coalesce(bool_or(b.day = f.day + ${n} AND ${BATCH_ACTIVE}), false) AS d${n}`).join(', ')},
               coalesce(sum(b.bet - b.win) FILTER (WHERE b.day >= f.day), 0) AS ggr, coalesce(sum(b.bonus) FILTER (WHERE b.day >= f.day), 0) AS bonus
          FROM analytics_batch b
          JOIN analytics_first_deposits f ON f.operator_id = b.operator_id AND f.entity_id = b.entity_id AND f.currency = b.currency
         WHERE b.counted AND NOT EXISTS (SELECT 1 FROM analytics_ftd_set n WHERE n.operator_id = b.operator_id AND n.entity_id = b.entity_id)
         GROUP BY 1, 2) r
  WHERE t.operator_id = r.operator_id AND t.entity_id = r.entity_id`;

/** The batch's players: every row this part changes is one of theirs. */
const BATCH_PLAYERS = '(SELECT DISTINCT operator_id, entity_id FROM analytics_batch WHERE counted)';

/**
 * Folds the batch's deposits and rounds into the kept first deposits, and their changes into the cohort days
 * (analyticsRollupCohorts.ts); `end` is the batch's last `(xid, id)`.
 */
export async function foldFirstDeposits(trx: Db, end: { xid: string; id: string }): Promise<void> {
  await takeMembersOut(trx, BATCH_PLAYERS);
  await trx.raw(
    `CREATE TEMP TABLE analytics_ftd_set (operator_id uuid, entity_id text, old_currency text, old_day date, currency text, day date,
       PRIMARY KEY (operator_id, entity_id)) ON COMMIT DROP`,
  );
  await trx.raw(FIRSTS);
  await trx.raw(CONVERSIONS);
  await foldRegionFtds(trx);
  await trx.raw(RECOUNT, { endXid: end.xid, endId: end.id });
  await trx.raw(EARLIER_ROUNDS);
  await trx.raw(MEMBER_RECOUNT);
  await trx.raw(MEMBER_DAYS);
  await trx.raw('DROP TABLE analytics_ftd_set');
  await putMembersBack(trx, BATCH_PLAYERS);
}

/**
 * Takes erased players' first deposits out, and them out of the converted players (binding `erased`, the JSON list of
 * analyticsRollupBatch.ts): their deposits are redacted, so on the raw path they have no FTD; their registration stays.
 */
export async function subtractErasedFirstDeposits(trx: Db, withErased: string, bindings: Record<string, string>): Promise<void> {
  await trx.raw(
    `${withErased}, gone AS (
       DELETE FROM analytics_first_deposits f USING erased e WHERE f.operator_id = e.operator_id AND f.entity_id = e.entity_id
       RETURNING f.operator_id, f.entity_id, f.currency, f.day
     ), sums AS (
       SELECT p.operator_id, ${REGISTERED_DAY} AS registered_day, p.currency, p.day, count(*) AS players FROM gone p GROUP BY 1, 2, 3, 4
     )
     UPDATE analytics_conversions t SET players = t.players - s.players
       FROM sums s WHERE t.operator_id = s.operator_id AND t.registered_day = s.registered_day AND t.currency = s.currency AND t.ftd_day = s.day`,
    bindings,
  );
}
