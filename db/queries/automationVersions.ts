import type { Knex } from 'knex';
import type { VersionDefinition } from '../../core/automations/versionDiff';
import type { Db } from '../knex';

type Runner = Db | Knex.Transaction;

/** An `automation_versions` row: one stored, immutable version of an automation (db/migrations/…_create_workflow_versions.ts). */
export interface VersionRow {
  operator_id: string;
  automation_id: string;
  version: number;
  definition: VersionDefinition;
  /** `member:<id>` or `key:<id>`; null when not known (versions from before they were recorded). */
  created_by: string | null;
  created_at: Date;
}

/** A version as a list shows it: the definition summarised, not carried. */
export interface VersionSummaryRow {
  version: number;
  name: string;
  description: string;
  node_count: number;
  edge_count: number;
  created_by: string | null;
  /** Who `created_by` is, as a person reads it: the member's display name, else email; the API key's label. */
  saved_by: string | null;
  created_at: Date;
}

const ofAutomation = (db: Runner, operatorId: string, automationId: string) =>
  db<VersionRow>('automation_versions').where({ operator_id: operatorId, automation_id: automationId });

/** Stores a version once: a second write of the same version is refused by the primary key, as versions never change. */
export async function insertVersion(
  trx: Runner,
  row: { operatorId: string; automationId: string; version: number; definition: VersionDefinition; createdBy: string | null },
): Promise<void> {
  await trx('automation_versions').insert({
    operator_id: row.operatorId,
    automation_id: row.automationId,
    version: row.version,
    definition: JSON.stringify(row.definition),
    created_by: row.createdBy,
  });
}

export async function findVersion(db: Runner, operatorId: string, automationId: string, version: number): Promise<VersionRow | undefined> {
  return ofAutomation(db, operatorId, automationId).where({ version }).first();
}

/** A page of an automation's versions, newest first, and how many there are. */
export async function listVersions(
  db: Runner,
  operatorId: string,
  automationId: string,
  page: { limit: number; offset: number },
): Promise<{ rows: VersionSummaryRow[]; count: number }> {
  const [rows, total] = await Promise.all([
    db('automation_versions as v')
      .where({ 'v.operator_id': operatorId, 'v.automation_id': automationId })
      // The saver, of the same operator only: `member:<members.id>` or `key:<api_keys.id>` (api/actor.ts).
      .leftJoin('members as m', (join) => join.on('m.operator_id', 'v.operator_id').andOn(db.raw("'member:' || m.id::text = v.created_by")))
      .leftJoin('users as u', 'u.id', 'm.user_id')
      .leftJoin('api_keys as k', (join) => join.on('k.operator_id', 'v.operator_id').andOn(db.raw("'key:' || k.id::text = v.created_by")))
      .orderBy('v.version', 'desc')
      .limit(page.limit)
      .offset(page.offset)
      .select<VersionSummaryRow[]>(
        'v.version',
        db.raw("v.definition->>'name' AS name"),
        db.raw("coalesce(v.definition->>'description', '') AS description"),
        db.raw("jsonb_array_length(v.definition->'nodes')::int AS node_count"),
        db.raw("jsonb_array_length(v.definition->'edges')::int AS edge_count"),
        'v.created_by',
        db.raw(
          "coalesce(nullif(m.display_name, ''), u.email, CASE WHEN k.id IS NOT NULL THEN 'API key ' || coalesce(nullif(k.label, ''), 'without a label') END) AS saved_by",
        ),
        'v.created_at',
      ),
    ofAutomation(db, operatorId, automationId).count<{ count: string }[]>({ count: '*' }),
  ]);
  return { rows, count: Number(total[0]?.count ?? 0) };
}
