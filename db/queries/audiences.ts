import type { Knex } from 'knex';
import type { Db } from '../knex';

type Runner = Db | Knex.Transaction;

export interface AudienceRow {
  id: string;
  name: string;
  definition: unknown;
  version: number;
  size: number;
  evaluated_at: Date | null;
  created_by: string;
  created_at: Date;
  updated_at: Date;
}

const COLUMNS = ['id', 'name', 'definition', 'version', 'size', 'evaluated_at', 'created_by', 'created_at', 'updated_at'];

/** The operator's audiences, oldest first (there are at most the cap's number). */
export async function listAudiences(db: Runner, operatorId: string): Promise<AudienceRow[]> {
  return db('audiences')
    .where({ operator_id: operatorId })
    .orderBy([{ column: 'created_at' }, { column: 'id' }])
    .select(COLUMNS);
}

export async function findAudience(db: Runner, operatorId: string, id: string, lock = false): Promise<AudienceRow | null> {
  const query = db('audiences').where({ operator_id: operatorId, id });
  return ((await (lock ? query.forUpdate() : query).first(COLUMNS)) as AudienceRow | undefined) ?? null;
}

export async function countAudiences(trx: Knex.Transaction, operatorId: string): Promise<number> {
  const [row] = await trx('audiences').where({ operator_id: operatorId }).count<Array<{ count: string }>>({ count: '*' });
  return Number(row?.count ?? 0);
}

export async function insertAudience(
  trx: Knex.Transaction,
  row: { id: string; operatorId: string; name: string; definition: unknown; createdBy: string },
): Promise<AudienceRow> {
  const [inserted] = await trx('audiences')
    .insert({ id: row.id, operator_id: row.operatorId, name: row.name, definition: JSON.stringify(row.definition), created_by: row.createdBy })
    .returning(COLUMNS);
  return inserted as AudienceRow;
}

/** A new definition is a new version: the next pass judges every player against it. */
export async function updateAudience(
  trx: Knex.Transaction,
  operatorId: string,
  id: string,
  change: { name: string; definition: unknown; definitionChanged: boolean },
): Promise<AudienceRow> {
  const [updated] = await trx('audiences')
    .where({ operator_id: operatorId, id })
    .update({
      name: change.name,
      definition: JSON.stringify(change.definition),
      version: change.definitionChanged ? trx.raw('version + 1') : trx.raw('version'),
      updated_at: trx.fn.now(),
    })
    .returning(COLUMNS);
  return updated as AudienceRow;
}

export async function deleteAudience(trx: Knex.Transaction, operatorId: string, id: string): Promise<void> {
  await trx('audiences').where({ operator_id: operatorId, id }).delete();
}

export interface MemberRow {
  external_id: string;
  entered_at: Date;
}

/** A page of members, the latest to enter first (then by entity id, so pages are stable). */
export async function audienceMembers(db: Runner, operatorId: string, audienceId: string, page: { limit: number; offset: number }): Promise<MemberRow[]> {
  return (
    db('audience_members as m')
      .join('entities as en', function joinEntity() {
        this.on('en.id', 'm.entity_id').andOn('en.operator_id', 'm.operator_id');
      })
      .where({ 'm.operator_id': operatorId, 'm.audience_id': audienceId })
      // An erased player is never listed, also in the seconds before the next pass takes it out.
      .whereNull('en.deleted_at')
      .orderBy([{ column: 'm.entered_at', order: 'desc' }, { column: 'm.entity_id' }])
      .limit(page.limit)
      .offset(page.offset)
      .select('en.external_id', 'm.entered_at')
  );
}

export interface SizeRow {
  day: string;
  size: number;
  entered: number;
  exited: number;
}

/** One row per UTC day the pass judged the audience, within the range, oldest first. */
export async function audienceSizes(db: Runner, operatorId: string, audienceId: string, range: { start: string; end: string }): Promise<SizeRow[]> {
  const result = await db.raw<{ rows: SizeRow[] }>(
    `SELECT to_char(s.day, 'YYYY-MM-DD') AS day, s.size, s.entered, s.exited
       FROM audience_sizes s JOIN audiences a ON a.id = s.audience_id AND a.operator_id = ?
      WHERE s.audience_id = ? AND s.day BETWEEN CAST(? AS date) AND CAST(? AS date)
      ORDER BY s.day`,
    [operatorId, audienceId, range.start, range.end],
  );
  return result.rows;
}
