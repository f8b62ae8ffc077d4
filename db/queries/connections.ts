import { hotQuery, type HotStatement } from '../hot';
import type { Db } from '../knex';

export interface ConnectionRow {
  id: string;
  operator_id: string;
  connector_id: string | null;
  name: string;
  credentials_ciphertext: string;
  base_url: string | null;
  active: boolean;
  created_at: Date;
  updated_at: Date;
}

export async function insertConnection(
  db: Db,
  input: { id: string; operatorId: string; connectorId: string; name: string; credentialsCiphertext: string; baseUrl: string | null; active: boolean },
): Promise<ConnectionRow> {
  const [row] = (await db('connections')
    .insert({
      id: input.id,
      operator_id: input.operatorId,
      connector_id: input.connectorId,
      name: input.name,
      credentials_ciphertext: input.credentialsCiphertext,
      base_url: input.baseUrl,
      active: input.active,
    })
    .returning('*')) as ConnectionRow[];
  return row!;
}

export async function listConnections(db: Db, operatorId: string): Promise<ConnectionRow[]> {
  return db<ConnectionRow>('connections').where({ operator_id: operatorId }).orderBy('created_at', 'desc').select('*');
}

/** `forUpdate`: locked until `db` (a transaction) ends, for a change that records what it replaced. */
export async function findConnection(db: Db, operatorId: string, id: string, options: { forUpdate?: boolean } = {}): Promise<ConnectionRow | undefined> {
  const query = db<ConnectionRow>('connections').where({ operator_id: operatorId, id });
  return options.forUpdate ? query.forUpdate().first() : query.first();
}

/** Read on every gateway call, before its lane sends it. */
const FIND_CONNECTION_FOR_CALL: HotStatement = {
  name: 'find_connection_for_call',
  text: `SELECT c.id, c.operator_id, c.connector_id, c.name, c.credentials_ciphertext, c.base_url, c.active, c.created_at, c.updated_at,
                k.id IS NOT NULL AS connector_found
           FROM connections c LEFT JOIN connectors k ON k.operator_id = c.operator_id AND k.id = c.connector_id
          WHERE c.operator_id = $1 AND c.id = $2`,
};

/** A connection with whether its connector still exists. */
export type ConnectionForCall = ConnectionRow & { connector_found: boolean };

/** A connection and whether its connector still exists, in one read: what every gateway call starts with. */
export async function findConnectionForCall(db: Db, operatorId: string, id: string): Promise<ConnectionForCall | undefined> {
  const [row] = await hotQuery<ConnectionForCall>(db, FIND_CONNECTION_FOR_CALL, [operatorId, id]);
  return row;
}

export interface ConnectionChanges {
  name?: string;
  credentialsCiphertext?: string;
  baseUrl?: string | null;
  active?: boolean;
}

export async function updateConnection(db: Db, operatorId: string, id: string, changes: ConnectionChanges): Promise<ConnectionRow | undefined> {
  const patch: Record<string, unknown> = { updated_at: db.fn.now() };
  if (changes.name !== undefined) patch.name = changes.name;
  if (changes.credentialsCiphertext !== undefined) patch.credentials_ciphertext = changes.credentialsCiphertext;
  if (changes.baseUrl !== undefined) patch.base_url = changes.baseUrl;
  if (changes.active !== undefined) patch.active = changes.active;
  const [row] = (await db('connections').where({ operator_id: operatorId, id }).update(patch).returning('*')) as ConnectionRow[];
  return row;
}
