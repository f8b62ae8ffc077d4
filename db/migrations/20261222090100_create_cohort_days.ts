import type { Knex } from 'knex';

/**
 * `/cohorts` without reading its members (issue 45, docs/analytics.md "Cohorts"): the kept members' figures summed per
 * (operator, currency, FTD day, kept jurisdiction key) — players, FTD amount, GGR and bonus cost from the FTD on, players
 * retained on FTD day + 1, 7 and 30 (`analytics_cohort_days`) — and the members per (currency, FTD day, last active day)
 * for churn (`analytics_cohort_last_days`). The pass changes them as it changes the members' rows, a move of a player's
 * keys moves them, and an erasure takes them out (db/queries/analyticsRollupCohorts.ts). A read sums a few rows per
 * cohort day instead of one per member.
 *
 * Filled here from the kept first deposits and keys, under the rollup state row's lock so no pass runs in between.
 * Stop the workers during the migration, as for any rollup change.
 */
export async function up(db: Knex): Promise<void> {
  await db.schema.createTable('analytics_cohort_days', (table) => {
    table.uuid('operator_id').notNullable().references('id').inTable('operators').onDelete('CASCADE');
    table.text('currency').notNullable();
    table.date('ftd_day').notNullable();
    table.text('jurisdiction').notNullable();
    table.bigInteger('players').notNullable();
    table.decimal('ftd_amount', null).notNullable();
    table.decimal('ggr', null).notNullable();
    table.decimal('bonus_cost', null).notNullable();
    for (const n of [1, 7, 30]) table.bigInteger(`retained_d${n}`).notNullable();
    table.primary(['operator_id', 'currency', 'ftd_day', 'jurisdiction']);
  });
  await db.schema.createTable('analytics_cohort_last_days', (table) => {
    table.uuid('operator_id').notNullable().references('id').inTable('operators').onDelete('CASCADE');
    table.text('currency').notNullable();
    table.date('ftd_day').notNullable();
    table.date('last_day').notNullable();
    table.bigInteger('players').notNullable();
    table.primary(['operator_id', 'currency', 'ftd_day', 'last_day']);
  });
  await db.raw('SELECT 1 FROM analytics_rollup_state WHERE id = 1 FOR UPDATE');
  await db.raw(
    `INSERT INTO analytics_cohort_days (operator_id, currency, ftd_day, jurisdiction, players, ftd_amount, ggr, bonus_cost, retained_d1, retained_d7, retained_d30)
     SELECT f.operator_id, f.currency, f.day, coalesce(k.jurisdiction, ''), count(*), sum(f.amount), sum(f.ggr_from_ftd_day - f.pre_ftd_ggr),
            sum(f.bonus_from_ftd_day - f.pre_ftd_bonus), count(*) FILTER (WHERE f.retained_d1), count(*) FILTER (WHERE f.retained_d7),
            count(*) FILTER (WHERE f.retained_d30)
       FROM analytics_first_deposits f
       LEFT JOIN analytics_player_keys k ON k.operator_id = f.operator_id AND k.entity_id = f.entity_id
      GROUP BY 1, 2, 3, 4`,
  );
  await db.raw(
    `INSERT INTO analytics_cohort_last_days (operator_id, currency, ftd_day, last_day, players)
     SELECT operator_id, currency, day, last_active_day, count(*) FROM analytics_first_deposits WHERE last_active_day IS NOT NULL GROUP BY 1, 2, 3, 4`,
  );
}

export async function down(db: Knex): Promise<void> {
  await db.schema.dropTable('analytics_cohort_last_days');
  await db.schema.dropTable('analytics_cohort_days');
}
