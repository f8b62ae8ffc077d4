import type { Knex } from 'knex';

/**
 * Cohorts read from the kept first deposits alone (issue 45, docs/analytics.md "Cohorts"): each member's last activity
 * (a round or a completed deposit in the FTD's currency), whether they were active on FTD day + 1, 7 and 30, and their
 * GGR and bonus cost from the FTD's day on, kept on their `analytics_first_deposits` row by the passes, so a cohort read
 * no longer joins every member's player-days.
 *
 * Filled here from `analytics_player_days` (what the passes have already read), under the rollup state row's lock so
 * no pass runs in between. Stop the workers during the migration, as for any rollup change.
 */
export async function up(db: Knex): Promise<void> {
  await db.raw(
    `ALTER TABLE analytics_first_deposits
       ADD COLUMN last_active_day date,
       ADD COLUMN retained_d1 boolean NOT NULL DEFAULT false,
       ADD COLUMN retained_d7 boolean NOT NULL DEFAULT false,
       ADD COLUMN retained_d30 boolean NOT NULL DEFAULT false,
       ADD COLUMN ggr_from_ftd_day numeric NOT NULL DEFAULT 0,
       ADD COLUMN bonus_from_ftd_day numeric NOT NULL DEFAULT 0`,
  );
  await db.raw('SELECT 1 FROM analytics_rollup_state WHERE id = 1 FOR UPDATE');
  await db.raw(
    `UPDATE analytics_first_deposits t
        SET last_active_day = s.last_active_day, retained_d1 = s.d1, retained_d7 = s.d7, retained_d30 = s.d30,
            ggr_from_ftd_day = s.ggr, bonus_from_ftd_day = s.bonus
       FROM (SELECT f.operator_id, f.entity_id,
                    max(a.day) FILTER (WHERE a.played OR a.deposited) AS last_active_day,
                    coalesce(bool_or(a.day = f.day + 1 AND (a.played OR a.deposited)), false) AS d1,
                    coalesce(bool_or(a.day = f.day + 7 AND (a.played OR a.deposited)), false) AS d7,
                    coalesce(bool_or(a.day = f.day + 30 AND (a.played OR a.deposited)), false) AS d30,
                    coalesce(sum(a.ggr) FILTER (WHERE a.day >= f.day), 0) AS ggr,
                    coalesce(sum(a.bonus) FILTER (WHERE a.day >= f.day), 0) AS bonus
               FROM analytics_first_deposits f
               JOIN analytics_player_days a ON a.operator_id = f.operator_id AND a.entity_id = f.entity_id AND a.currency = f.currency
              GROUP BY 1, 2) s
      WHERE t.operator_id = s.operator_id AND t.entity_id = s.entity_id`,
  );
}

export async function down(db: Knex): Promise<void> {
  await db.raw(
    `ALTER TABLE analytics_first_deposits DROP COLUMN last_active_day, DROP COLUMN retained_d1, DROP COLUMN retained_d7,
       DROP COLUMN retained_d30, DROP COLUMN ggr_from_ftd_day, DROP COLUMN bonus_from_ftd_day`,
  );
}
