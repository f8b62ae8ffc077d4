import type { Knex } from 'knex';
import type { Db } from '../knex';

type Runner = Db | Knex.Transaction;

export interface NgrDefinitionRow {
  version: number;
  definition: unknown;
  created_by: string;
  created_at: Date;
}

/** The operator's latest NGR definition, or null when it never saved one. */
export async function latestNgrDefinition(db: Runner, operatorId: string): Promise<NgrDefinitionRow | null> {
  const row = await db('ngr_definitions')
    .where({ operator_id: operatorId })
    .orderBy('version', 'desc')
    .first('version', 'definition', 'created_by', 'created_at');
  return (row as NgrDefinitionRow | undefined) ?? null;
}

/** The operator's versions, newest first, at most `limit`. */
export async function listNgrDefinitions(db: Runner, operatorId: string, limit: number): Promise<NgrDefinitionRow[]> {
  return db('ngr_definitions')
    .where({ operator_id: operatorId })
    .orderBy('version', 'desc')
    .limit(limit)
    .select('version', 'definition', 'created_by', 'created_at');
}

/** Adds the next version; the caller holds the operator's lock so two saves cannot take the same number. */
export async function insertNgrDefinition(trx: Knex.Transaction, operatorId: string, definition: unknown, createdBy: string): Promise<NgrDefinitionRow> {
  const [row] = await trx('ngr_definitions')
    .insert({
      operator_id: operatorId,
      version: trx.raw('(SELECT coalesce(max(version), 0) + 1 FROM ngr_definitions WHERE operator_id = ?)', [operatorId]),
      definition: JSON.stringify(definition),
      created_by: createdBy,
    })
    .returning(['version', 'definition', 'created_by', 'created_at']);
  return row as NgrDefinitionRow;
}
