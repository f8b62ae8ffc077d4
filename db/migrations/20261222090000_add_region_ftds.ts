import type { Knex } from 'knex';

/**
 * `/splits`' FTDs without reading the range's first deposits and their players (issue 45, docs/analytics.md "Splits"):
 * `analytics_region_days` gains `ftds`, the first deposits per (operator, dimension, currency, FTD day, group), kept
 * under the player's kept keys like the day's money, moved by the pass that sets or moves a first deposit or a
 * player's keys, and taken out when the player is erased (db/queries/analyticsRollupRegions.ts).
 *
 * Filled here from the kept first deposits and keys, under the rollup state row's lock so no pass runs in between.
 * Stop the workers during the migration, as for any rollup change.
 */
const CODE = `'^[A-Z]{2}(-[A-Z0-9]{1,3}){0,1}$'`;
const GROUPS = `CROSS JOIN LATERAL (VALUES ('country', k.country), ('jurisdiction', CASE WHEN k.jurisdiction ~ ${CODE} THEN k.jurisdiction ELSE 'other' END)) g(dimension, key)`;

export async function up(db: Knex): Promise<void> {
  await db.raw('ALTER TABLE analytics_region_days ADD COLUMN ftds bigint NOT NULL DEFAULT 0');
  await db.raw('SELECT 1 FROM analytics_rollup_state WHERE id = 1 FOR UPDATE');
  await db.raw(
    `INSERT INTO analytics_region_days AS t (operator_id, dimension, currency, day, key, ftds)
     SELECT f.operator_id, g.dimension, f.currency, f.day, g.key, count(*)
       FROM analytics_first_deposits f
       JOIN analytics_player_keys k ON k.operator_id = f.operator_id AND k.entity_id = f.entity_id
       ${GROUPS}
      GROUP BY 1, 2, 3, 4, 5
     ON CONFLICT (operator_id, dimension, currency, day, key) DO UPDATE SET ftds = excluded.ftds`,
  );
}

export async function down(db: Knex): Promise<void> {
  await db.raw('ALTER TABLE analytics_region_days DROP COLUMN ftds');
}
