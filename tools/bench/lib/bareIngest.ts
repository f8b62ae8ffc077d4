import { randomBytes } from 'node:crypto';
import Koa from 'koa';
import pg from 'pg';
import getRawBody from 'raw-body';
import { serveKoa } from './serveKoa';

/**
 * The floor of single-event ingestion, for `bench:ingest` to measure the API against: a bare Koa handler that
 * parses the JSON body and writes the same `entity_events` row with one INSERT through a plain `pg` pool, the
 * entity id already known. No authentication, validation, rate limit, outbox or idempotency.
 */
export async function startBareIngest(options: { databaseUrl: string; operatorId: string; entityIds: Map<string, string>; poolMax: number }) {
  const pool = new pg.Pool({ connectionString: options.databaseUrl, max: options.poolMax });
  const app = new Koa();
  app.use(async (ctx) => {
    const externalId = decodeURIComponent(ctx.path.split('/')[3] ?? '');
    const body = JSON.parse(await getRawBody(ctx.req, { encoding: 'utf8' })) as { eventType: string; data: unknown };
    const id = `eev_${randomBytes(16).toString('hex')}`;
    await pool.query({
      name: 'bare-insert-event',
      text: 'INSERT INTO entity_events (id, operator_id, entity_id, event_type, data, created_at) VALUES ($1, $2, $3, $4, $5, now())',
      values: [id, options.operatorId, options.entityIds.get(externalId), body.eventType, JSON.stringify(body.data)],
    });
    ctx.status = 201;
    ctx.body = { success: true, data: { id } };
  });
  const served = await serveKoa(app);
  return {
    url: served.url,
    async close() {
      await served.close();
      await pool.end();
    },
  };
}
