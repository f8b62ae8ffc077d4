import type { Knex } from 'knex';

/**
 * `/splits` from the rollups without reading the range's player-days (issue 45, docs/analytics.md "Splits"):
 * - each player's kept keys (`analytics_player_jurisdictions` becomes `analytics_player_keys`) gain `country`, the
 *   country's group (an ISO code's shape upper-cased, else `other`); every counted player is kept, not only those with
 *   a round or a bonus. The queue of changes (now `analytics_player_key_changes`) also takes country changes;
 * - `analytics_region_days`: GGR, completed deposits and withdrawals per (operator, currency, day, dimension, group);
 * - two distinct-player series per currency group (`active-in-currency:<group>`: a round or a completed deposit;
 *   `deposited-in-currency:<group>`: a completed deposit), and their gaps per country and jurisdiction group
 *   (`analytics_region_gaps`), so a range's active and depositing players per group are a few rows per day.
 *
 * Filled here from what the passes have already read (`analytics_player_days`, the players now), under the rollup
 * state row's lock so no pass runs in between. Stop the workers during the migration, as for any rollup change.
 */
const CODE = `'^[A-Z]{2}(-[A-Z0-9]{1,3}){0,1}$'`;
const JURISDICTION_KEY = `coalesce(CASE WHEN length(en.data->>'jurisdiction') <= 64 THEN upper(en.data->>'jurisdiction') ELSE '' END, '')`;
const COUNTRY_KEY = `CASE WHEN upper(en.data->>'country') ~ ${CODE} THEN upper(en.data->>'country') ELSE 'other' END`;
const GROUPS = `CROSS JOIN LATERAL (VALUES ('country', k.country), ('jurisdiction', CASE WHEN k.jurisdiction ~ ${CODE} THEN k.jurisdiction ELSE 'other' END)) g(dimension, key)`;
const CURRENCY_GROUP = `CASE WHEN currency ~ '^[A-Z]{3}$' THEN currency ELSE 'other' END`;
const REGION_SERIES = `(series LIKE 'active-in-currency:%' OR series LIKE 'deposited-in-currency:%')`;

async function renameKeys(db: Knex, from: { keys: string; changes: string }, to: { keys: string; changes: string }): Promise<void> {
  await db.raw(`ALTER TABLE ${from.keys} RENAME TO ${to.keys}`);
  await db.raw(`ALTER TABLE ${from.changes} RENAME TO ${to.changes}`);
}

async function queueChanges(db: Knex, table: string, fn: string, trigger: string, fields: string[]): Promise<void> {
  await db.raw(`
    CREATE FUNCTION ${fn}() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      INSERT INTO ${table} (operator_id, entity_id) VALUES (NEW.operator_id, NEW.id) ON CONFLICT DO NOTHING;
      RETURN NULL;
    END $$`);
  const changed = fields.map((field) => `OLD.data->'${field}' IS DISTINCT FROM NEW.data->'${field}'`).join(' OR ');
  await db.raw(`
    CREATE TRIGGER ${trigger} AFTER UPDATE OF data ON entities FOR EACH ROW
    WHEN (NEW.entity_type = 'player' AND (${changed}))
    EXECUTE FUNCTION ${fn}()`);
}

export async function up(db: Knex): Promise<void> {
  await db.raw('DROP TRIGGER analytics_jurisdiction_changed ON entities');
  await db.raw('DROP FUNCTION analytics_queue_jurisdiction_change()');
  await renameKeys(db, { keys: 'analytics_player_jurisdictions', changes: 'analytics_jurisdiction_changes' }, {
    keys: 'analytics_player_keys',
    changes: 'analytics_player_key_changes',
  });
  await db.raw(`ALTER TABLE analytics_player_keys ADD COLUMN country text NOT NULL DEFAULT 'other'`);
  await queueChanges(db, 'analytics_player_key_changes', 'analytics_queue_player_key_change', 'analytics_player_key_changed', ['jurisdiction', 'country']);
  await db.schema.createTable('analytics_region_days', (table) => {
    table.uuid('operator_id').notNullable().references('id').inTable('operators').onDelete('CASCADE');
    table.text('dimension').notNullable();
    table.text('currency').notNullable();
    table.date('day').notNullable();
    table.text('key').notNullable();
    table.decimal('ggr', null).notNullable().defaultTo(0);
    table.decimal('deposits', null).notNullable().defaultTo(0);
    table.decimal('withdrawals', null).notNullable().defaultTo(0);
    table.primary(['operator_id', 'dimension', 'currency', 'day', 'key']);
  });
  await db.schema.createTable('analytics_region_gaps', (table) => {
    table.uuid('operator_id').notNullable().references('id').inTable('operators').onDelete('CASCADE');
    table.text('dimension').notNullable();
    table.text('series').notNullable();
    table.date('day').notNullable();
    table.date('prev_day').notNullable();
    table.text('key').notNullable();
    table.bigInteger('players').notNullable();
    table.primary(['operator_id', 'dimension', 'series', 'day', 'prev_day', 'key']);
  });

  await db.raw('SELECT 1 FROM analytics_rollup_state WHERE id = 1 FOR UPDATE');
  await db.raw(
    `UPDATE analytics_player_keys k SET country = ${COUNTRY_KEY} FROM entities en
      WHERE en.id = k.entity_id AND en.operator_id = k.operator_id AND ${COUNTRY_KEY} <> 'other'`,
  );
  await db.raw(
    `INSERT INTO analytics_player_keys (operator_id, entity_id, jurisdiction, country)
     SELECT en.operator_id, en.id, ${JURISDICTION_KEY}, ${COUNTRY_KEY} FROM entities en
      WHERE en.entity_type = 'player' AND en.deleted_at IS NULL
        AND EXISTS (SELECT 1 FROM analytics_player_days d WHERE d.operator_id = en.operator_id AND d.entity_id = en.id)
     ON CONFLICT (operator_id, entity_id) DO NOTHING`,
  );
  await db.raw(
    `INSERT INTO analytics_region_days (operator_id, dimension, currency, day, key, ggr, deposits, withdrawals)
     SELECT d.operator_id, g.dimension, d.currency, d.day, g.key, sum(d.ggr), sum(d.deposits), sum(d.withdrawals)
       FROM analytics_player_days d
       JOIN analytics_player_keys k ON k.operator_id = d.operator_id AND k.entity_id = d.entity_id
       ${GROUPS}
      GROUP BY 1, 2, 3, 4, 5`,
  );
  await db.raw(
    `WITH days AS (
       SELECT DISTINCT operator_id, entity_id, 'active-in-currency:' || ${CURRENCY_GROUP} AS series, day FROM analytics_player_days WHERE played OR deposited
       UNION
       SELECT DISTINCT operator_id, entity_id, 'deposited-in-currency:' || ${CURRENCY_GROUP}, day FROM analytics_player_days WHERE deposited
     ), added AS (
       INSERT INTO analytics_player_chain (operator_id, entity_id, series, day, prev_day)
       SELECT operator_id, entity_id, series, day, coalesce(lag(day) OVER (PARTITION BY operator_id, entity_id, series ORDER BY day), '-infinity'::date)
         FROM days
       ON CONFLICT DO NOTHING
       RETURNING operator_id, series, day, prev_day
     )
     INSERT INTO analytics_player_gaps (operator_id, series, day, prev_day, players)
     SELECT operator_id, series, day, prev_day, count(*) FROM added GROUP BY 1, 2, 3, 4
     ON CONFLICT (operator_id, series, day, prev_day) DO UPDATE SET players = analytics_player_gaps.players + excluded.players`,
  );
  await db.raw(
    `INSERT INTO analytics_region_gaps (operator_id, dimension, series, day, prev_day, key, players)
     SELECT c.operator_id, g.dimension, c.series, c.day, c.prev_day, g.key, count(*)
       FROM analytics_player_chain c
       JOIN analytics_player_keys k ON k.operator_id = c.operator_id AND k.entity_id = c.entity_id
       ${GROUPS}
      WHERE ${REGION_SERIES.replaceAll('series', 'c.series')}
      GROUP BY 1, 2, 3, 4, 5, 6`,
  );
}

export async function down(db: Knex): Promise<void> {
  await db.schema.dropTable('analytics_region_gaps');
  await db.schema.dropTable('analytics_region_days');
  await db.raw(`DELETE FROM analytics_player_gaps WHERE ${REGION_SERIES}`);
  await db.raw(`DELETE FROM analytics_player_chain WHERE ${REGION_SERIES}`);
  await db.raw('DROP TRIGGER analytics_player_key_changed ON entities');
  await db.raw('DROP FUNCTION analytics_queue_player_key_change()');
  await db.raw(
    `DELETE FROM analytics_player_keys k
      WHERE NOT EXISTS (SELECT 1 FROM analytics_player_days d WHERE d.operator_id = k.operator_id AND d.entity_id = k.entity_id AND (d.played OR d.bonused))`,
  );
  await db.raw('ALTER TABLE analytics_player_keys DROP COLUMN country');
  await renameKeys(db, { keys: 'analytics_player_keys', changes: 'analytics_player_key_changes' }, {
    keys: 'analytics_player_jurisdictions',
    changes: 'analytics_jurisdiction_changes',
  });
  await queueChanges(db, 'analytics_jurisdiction_changes', 'analytics_queue_jurisdiction_change', 'analytics_jurisdiction_changed', ['jurisdiction']);
}
