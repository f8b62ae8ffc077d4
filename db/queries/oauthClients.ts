import type { Db } from '../knex';

export interface OAuthClientRow {
  id: string;
  kind: 'dcr' | 'cimd';
  client_name: string;
  client_uri: string | null;
  redirect_uris: string[];
  created_at: Date;
  last_used_at: Date;
  expires_at: Date;
}

export interface OAuthRequestRow {
  id: string;
  client_id: string;
  redirect_uri: string;
  state: string | null;
  code_challenge: string;
  scopes: string[];
  resource: string;
  expires_at: Date;
}

/** A client that has not expired (a DCR registration unused too long, a CIMD past its cache time, read as absent). */
export async function findLiveClient(db: Db, id: string): Promise<OAuthClientRow | undefined> {
  return db('oauth_clients').where({ id }).where('expires_at', '>', db.fn.now()).first();
}

export async function upsertClient(
  db: Db,
  client: { id: string; kind: 'dcr' | 'cimd'; clientName: string; clientUri: string | null; redirectUris: string[]; ttlSeconds: number },
): Promise<OAuthClientRow> {
  const values = {
    kind: client.kind,
    client_name: client.clientName,
    client_uri: client.clientUri,
    redirect_uris: client.redirectUris,
    last_used_at: db.fn.now(),
    expires_at: db.raw(`now() + make_interval(secs => ?)`, [client.ttlSeconds]),
  };
  const [row] = await db('oauth_clients')
    .insert({ id: client.id, ...values })
    .onConflict('id')
    .merge(values)
    .returning('*');
  return row as OAuthClientRow;
}

/** A DCR registration in use lives another `ttlSeconds` from now (a CIMD keeps the cache time it was fetched with). */
export async function touchClient(db: Db, id: string, ttlSeconds: number): Promise<void> {
  await db('oauth_clients')
    .where({ id, kind: 'dcr' })
    .update({ last_used_at: db.fn.now(), expires_at: db.raw(`now() + make_interval(secs => ?)`, [ttlSeconds]) });
}

/**
 * Removes, at most `limit` of each, expired clients, authorization requests, codes and tokens: run at each
 * registration, so unused registrations never pile up however many hosts register.
 */
export async function removeExpired(db: Db, limit = 500): Promise<number> {
  let removed = 0;
  for (const [table, key] of [
    ['oauth_clients', 'id'],
    ['oauth_requests', 'id'],
    ['mcp_oauth_codes', 'code_hash'],
    ['mcp_oauth_tokens', 'token_hash'],
  ] as const) {
    removed += await db(table)
      .whereIn(key, db(table).select(key).where('expires_at', '<', db.raw("now() - interval '1 day'")).limit(limit))
      .delete();
  }
  return removed;
}

export async function insertRequest(db: Db, request: Omit<OAuthRequestRow, 'expires_at'> & { ttlSeconds: number }): Promise<void> {
  const { ttlSeconds, ...row } = request;
  await db('oauth_requests').insert({ ...row, expires_at: db.raw(`now() + make_interval(secs => ?)`, [ttlSeconds]) });
}

export async function findLiveRequest(db: Db, id: string): Promise<OAuthRequestRow | undefined> {
  return db('oauth_requests').where({ id }).where('expires_at', '>', db.fn.now()).first();
}

/** Takes the request for a decision: returns it and deletes it at once, so a request is decided once. */
export async function takeRequest(db: Db, id: string): Promise<OAuthRequestRow | undefined> {
  const [row] = await db('oauth_requests').where({ id }).where('expires_at', '>', db.fn.now()).delete().returning('*');
  return row as OAuthRequestRow | undefined;
}
