import type { Knex } from 'knex';

/**
 * Churn after N days without activity, N per operator (issue 45, docs/analytics.md "Cohorts"): `GET /cohorts` judges
 * churn on this when the request names no `churn_days`. A column with a constant default: no table rewrite.
 */
export async function up(db: Knex): Promise<void> {
  await db.raw(
    'ALTER TABLE operator_settings ADD COLUMN churn_days integer NOT NULL DEFAULT 30 CONSTRAINT operator_settings_churn_days_range CHECK (churn_days BETWEEN 1 AND 365)',
  );
}

export async function down(db: Knex): Promise<void> {
  await db.raw('ALTER TABLE operator_settings DROP COLUMN churn_days');
}
