import type { Db } from '../knex';
import { inTurn } from './analyticsRead';
import type { EntityRow, EventRow } from './entities';

export type PlayerSort = 'created_at' | 'updated_at' | 'external_id';

export interface PlayerListQuery {
  entityType: string;
  search?: string;
  sort: PlayerSort;
  direction: 'asc' | 'desc';
  limit: number;
  offset: number;
}

const escapeLike = (text: string): string => text.replace(/[\\%_]/g, (char) => `\\${char}`);

/** A page of the operator's live entities of one type (data as stored: PII stays sealed) and the total matching. */
export async function listPlayers(db: Db, operatorId: string, query: PlayerListQuery): Promise<{ players: EntityRow[]; total: number }> {
  const base = db('entities').where({ operator_id: operatorId, entity_type: query.entityType }).whereNull('deleted_at');
  if (query.search) base.andWhereRaw(`external_id ILIKE ? ESCAPE '\\'`, [`%${escapeLike(query.search)}%`]);
  const [players, total] = await inTurn(
    () =>
      base
        .clone()
        .orderBy([
          { column: query.sort, order: query.direction },
          { column: 'id', order: query.direction },
        ])
        .limit(query.limit)
        .offset(query.offset)
        .select('id', 'operator_id', 'external_id', 'entity_type', 'data', 'deleted_at', 'created_at', 'updated_at'),
    () => base.clone().count<{ count: string }[]>({ count: '*' }),
  );
  return { players, total: Number(total[0]?.count ?? 0) };
}

/** A live (not erased) entity by external id. */
export async function findLivePlayer(db: Db, operatorId: string, externalId: string): Promise<EntityRow | undefined> {
  return db('entities').where({ operator_id: operatorId, external_id: externalId }).whereNull('deleted_at').first();
}

/** The entity's most recent events, redacted ones left out. */
export async function recentEvents(db: Db, operatorId: string, entityId: string, limit: number): Promise<EventRow[]> {
  return db('entity_events')
    .where({ operator_id: operatorId, entity_id: entityId })
    .whereRaw(`data->'_redacted' IS NULL`)
    .orderBy([
      { column: 'created_at', order: 'desc' },
      { column: 'id', order: 'desc' },
    ])
    .limit(limit)
    .select('id', 'event_type', 'data', 'created_at');
}
