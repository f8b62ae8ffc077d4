import type { Db } from '../knex';
import { putMembersBack, takeMembersOut } from './analyticsRollupCohorts';
import { moveRegions, subtractErasedRegions } from './analyticsRollupRegions';
import { REGION_GROUPS } from './analyticsSplits';

/**
 * The keys a player's days are kept under, and NGR's jurisdiction part of the rollups (docs/analytics.md "NGR"): GGR
 * and bonus cost per day, currency and player jurisdiction (`analytics_jurisdiction_days`), so `/business`'s NGR reads
 * a few rows per day instead of joining every player-day of its range to the players. A player's days are kept under
 * the jurisdiction and country they have now, as the raw path groups them: `analytics_player_keys` holds each player's
 * keys, and a player whose jurisdiction or country changes (queued in `analytics_player_key_changes` by a trigger on
 * `entities`) has all their days moved by the next pass (here and in analyticsRollupRegions.ts).
 */

/**
 * A player's (alias `en`) key: the upper-cased jurisdiction when it is at most 64 characters, else `''` — no NGR
 * definition lists one that long (at most 20), so such a player is in the unlisted group on both paths.
 */
const JURISDICTION_KEY = `CASE WHEN length(en.data->>'jurisdiction') <= 64 THEN upper(en.data->>'jurisdiction') ELSE '' END`;
const KEY = `coalesce(${JURISDICTION_KEY}, '')`;
/** A player's (alias `en`) country group: an ISO code's shape upper-cased, else `other` (analyticsSplits.ts). */
const COUNTRY_KEY = REGION_GROUPS.country;

/**
 * The batch's counted players not seen yet get their keys now; a kept one moves only through the queue. Every lookup
 * is a correlated probe of a primary key, so the cost follows the batch, never the players' tables (a join here was
 * hashed over every player of every operator, per batch).
 */
const KEEP = `INSERT INTO analytics_player_keys (operator_id, entity_id, jurisdiction, country)
  SELECT p.operator_id, p.entity_id, coalesce(en.jurisdiction, ''), coalesce(en.country, 'other')
    FROM (SELECT DISTINCT operator_id, entity_id FROM analytics_batch WHERE counted) p
    LEFT JOIN LATERAL (SELECT ${JURISDICTION_KEY} AS jurisdiction, ${COUNTRY_KEY} AS country FROM entities en
                        WHERE en.id = p.entity_id AND en.operator_id = p.operator_id) en ON true
   WHERE (SELECT k.jurisdiction FROM analytics_player_keys k WHERE k.operator_id = p.operator_id AND k.entity_id = p.entity_id) IS NULL
  ON CONFLICT (operator_id, entity_id) DO NOTHING`;

/**
 * The batch's rounds and completed bonuses per player-day, added under the player's kept key (a primary-key probe, as
 * in {@link KEEP}).
 */
const ADD = `INSERT INTO analytics_jurisdiction_days AS t (operator_id, currency, day, jurisdiction, ggr, bonus)
  SELECT operator_id, currency, day, jurisdiction, sum(ggr), sum(bonus)
    FROM (SELECT g.operator_id, g.currency, g.day, g.ggr, g.bonus,
                 (SELECT k.jurisdiction FROM analytics_player_keys k WHERE k.operator_id = g.operator_id AND k.entity_id = g.entity_id) AS jurisdiction
            FROM (SELECT operator_id, day, entity_id, currency, sum(bet - win) AS ggr, sum(bonus) AS bonus
                    FROM analytics_batch WHERE counted AND (is_game OR is_bonus) GROUP BY 1, 2, 3, 4) g) r
   GROUP BY 1, 2, 3, 4
  ON CONFLICT (operator_id, currency, day, jurisdiction) DO UPDATE SET ggr = t.ggr + excluded.ggr, bonus = t.bonus + excluded.bonus`;

/** Folds the batch (`analytics_batch`) into the jurisdiction days. */
export async function foldJurisdictions(trx: Db): Promise<void> {
  await trx.raw(KEEP);
  await trx.raw(ADD);
}

/** Adds each moved player's player-days with a round or a bonus to their new jurisdiction key, less the old. */
const MOVE_DAYS = `WITH deltas AS (
    SELECT d.operator_id, d.currency, d.day, x.key AS jurisdiction, x.sign * d.ggr AS ggr, x.sign * d.bonus AS bonus
      FROM analytics_keys_moved m
      CROSS JOIN LATERAL (VALUES (m.old_jurisdiction, -1), (m.new_jurisdiction, 1)) x(key, sign)
      JOIN analytics_player_days d ON d.operator_id = m.operator_id AND d.entity_id = m.entity_id
     WHERE m.old_jurisdiction <> m.new_jurisdiction AND (d.played OR d.bonused)
  )
  INSERT INTO analytics_jurisdiction_days AS t (operator_id, currency, day, jurisdiction, ggr, bonus)
  SELECT operator_id, currency, day, jurisdiction, sum(ggr), sum(bonus) FROM deltas GROUP BY 1, 2, 3, 4
  ON CONFLICT (operator_id, currency, day, jurisdiction) DO UPDATE SET ggr = t.ggr + excluded.ggr, bonus = t.bonus + excluded.bonus`;

/**
 * Moves the days of players whose jurisdiction or country changed since they were kept: the queue is drained (a
 * change committed later stays queued for the next pass), each live player's keys compared with theirs now. An erased
 * player is left to the erasure, which takes their days out under the kept keys.
 */
export async function moveKeys(trx: Db): Promise<void> {
  const queued = await trx.raw('SELECT EXISTS (SELECT 1 FROM analytics_player_key_changes) AS any');
  if (!queued.rows[0].any) return;
  await trx.raw(
    `CREATE TEMP TABLE analytics_keys_moved (operator_id uuid, entity_id text, old_jurisdiction text, new_jurisdiction text, old_country text, new_country text) ON COMMIT DROP`,
  );
  await trx.raw(
    `WITH queued AS (DELETE FROM analytics_player_key_changes RETURNING operator_id, entity_id)
     INSERT INTO analytics_keys_moved
     SELECT k.operator_id, k.entity_id, k.jurisdiction, ${KEY}, k.country, ${COUNTRY_KEY}
       FROM (SELECT DISTINCT operator_id, entity_id FROM queued) q
       JOIN analytics_player_keys k ON k.operator_id = q.operator_id AND k.entity_id = q.entity_id
       JOIN entities en ON en.id = q.entity_id AND en.operator_id = q.operator_id AND en.deleted_at IS NULL
      WHERE k.jurisdiction <> ${KEY} OR k.country <> ${COUNTRY_KEY}`,
  );
  await trx.raw(MOVE_DAYS);
  await moveRegions(trx);
  await takeMembersOut(trx, 'analytics_keys_moved');
  await trx.raw(
    `UPDATE analytics_player_keys k SET jurisdiction = m.new_jurisdiction, country = m.new_country FROM analytics_keys_moved m
      WHERE k.operator_id = m.operator_id AND k.entity_id = m.entity_id`,
  );
  await putMembersBack(trx, 'analytics_keys_moved');
  await trx.raw('DROP TABLE analytics_keys_moved');
}

/**
 * Takes erased players' days out of the jurisdiction and region days under their kept keys (binding `erased`, the
 * JSON list of analyticsRollupBatch.ts); before their `analytics_player_days` rows and chains are deleted.
 */
export async function subtractErasedJurisdictions(trx: Db, withErased: string, bindings: Record<string, string>): Promise<void> {
  await subtractErasedRegions(trx, withErased, bindings);
  await trx.raw(
    `${withErased}, gone AS (
       DELETE FROM analytics_player_keys k USING erased e WHERE k.operator_id = e.operator_id AND k.entity_id = e.entity_id
       RETURNING k.operator_id, k.entity_id, k.jurisdiction
     ),
     sums AS (
       SELECT d.operator_id, d.currency, d.day, g.jurisdiction, sum(d.ggr) AS ggr, sum(d.bonus) AS bonus
         FROM gone g JOIN analytics_player_days d ON d.operator_id = g.operator_id AND d.entity_id = g.entity_id
        WHERE d.played OR d.bonused GROUP BY 1, 2, 3, 4
     )
     UPDATE analytics_jurisdiction_days t SET ggr = t.ggr - s.ggr, bonus = t.bonus - s.bonus
       FROM sums s WHERE t.operator_id = s.operator_id AND t.currency = s.currency AND t.day = s.day AND t.jurisdiction = s.jurisdiction`,
    bindings,
  );
}
