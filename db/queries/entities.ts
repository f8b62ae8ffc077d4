import type { Knex } from 'knex';
import type { Db } from '../knex';

export interface EntityRow {
  id: string;
  operator_id: string;
  entity_type: string;
  external_id: string;
  data: Record<string, unknown>;
  deleted_at: Date | null;
  created_at: Date;
  updated_at: Date;
}

export async function findEntity(db: Db | Knex.Transaction, operatorId: string, externalId: string): Promise<EntityRow | undefined> {
  return db('entities').where({ operator_id: operatorId, external_id: externalId }).first();
}

/** Looks up many entities by external id in one statement (batches resolve their targets this way). */
export async function findEntitiesByExternalIds(
  db: Db | Knex.Transaction,
  operatorId: string,
  externalIds: string[],
  options: { forUpdate?: boolean } = {},
): Promise<Map<string, Pick<EntityRow, 'id' | 'external_id' | 'entity_type' | 'deleted_at'>>> {
  if (externalIds.length === 0) return new Map();
  const query = db('entities')
    .where({ operator_id: operatorId })
    .whereRaw('external_id = ANY(?)', [externalIds])
    .select('id', 'external_id', 'entity_type', 'deleted_at');
  const rows = await (options.forUpdate ? query.forUpdate() : query);
  return new Map(rows.map((row: EntityRow) => [row.external_id, row]));
}

export interface EventRow {
  id: string;
  event_type: string;
  data: unknown;
  created_at: Date;
}

/** Newest first; `count` is every event matching the filter, not just this page. */
export async function listEvents(
  db: Db,
  operatorId: string,
  entityId: string,
  options: { type?: string; limit: number; offset: number },
): Promise<{ events: EventRow[]; count: number }> {
  const base = db('entity_events').where({ operator_id: operatorId, entity_id: entityId });
  if (options.type) base.andWhere({ event_type: options.type });
  const [events, total] = await Promise.all([
    base
      .clone()
      .orderBy([
        { column: 'created_at', order: 'desc' },
        { column: 'id', order: 'desc' },
      ])
      .limit(options.limit)
      .offset(options.offset)
      .select('id', 'event_type', 'data', 'created_at'),
    base.clone().count<{ count: string }[]>({ count: '*' }),
  ]);
  return { events, count: Number(total[0]?.count ?? 0) };
}

export interface StateRow {
  state_key: string;
  value: unknown;
  updated_at: Date;
}

export async function listStates(db: Db, operatorId: string, entityId: string): Promise<StateRow[]> {
  return db('entity_states').where({ operator_id: operatorId, entity_id: entityId }).orderBy('state_key').select('state_key', 'value', 'updated_at');
}

export async function findState(db: Db, operatorId: string, entityId: string, key: string): Promise<StateRow | undefined> {
  return db('entity_states').where({ operator_id: operatorId, entity_id: entityId, state_key: key }).first('state_key', 'value', 'updated_at');
}
