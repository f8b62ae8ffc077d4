import type { Db } from '../../db/knex';
import { http, type HttpResult, type RequestOptions } from './http';
import type { TestApp } from './app';
import type { DataClient } from './data';

const DAY_MS = 86_400_000;
/** `YYYY-MM-DD` of the UTC day `daysAgo` before today. */
export const dayAgo = (daysAgo: number): string => new Date(Date.now() - daysAgo * DAY_MS).toISOString().slice(0, 10);

/**
 * Waits until every transaction that began before the call has ended, anywhere on the server. A rollup or audience
 * pass reads only below the oldest transaction still running (docs/analytics.md "Rollups"), which a suite running
 * beside this one can hold back for a pass's length; after this, a pass sees everything committed before the call.
 */
export async function earlierTransactionsEnded(db: Db, timeoutMs = 60_000): Promise<void> {
  const started = (await db.raw('SELECT pg_snapshot_xmax(pg_current_snapshot())::text AS xmax')).rows[0].xmax as string;
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const oldest = (await db.raw('SELECT pg_snapshot_xmin(pg_current_snapshot())::text AS xmin')).rows[0].xmin as string;
    if (BigInt(oldest) >= BigInt(started)) return;
    if (Date.now() > deadline) throw new Error(`a transaction older than ${started} still runs after ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** A request to `/analytics-api/analytics<path>` with the given bearer token. */
export const analytics = (app: TestApp, token: string | undefined, path: string, options: Omit<RequestOptions, 'token'> = {}): Promise<HttpResult> =>
  http(`${app.url}/analytics-api/analytics${path}`, { ...options, ...(token ? { token } : {}) });

export interface SeedEvent {
  externalId: string;
  daysAgo: number;
  eventType: string;
  data: Record<string, unknown>;
}

/**
 * Records events through the data API, then moves each one (arrival and occurrence alike) to noon UTC `daysAgo` days
 * back. The occurrence's day is sent as `data.timestamp` too (noon, or now if that is ahead; unless the event has one): a rollup pass of another test file
 * may read the event before the UPDATE, and the rollups never see an UPDATE (docs/analytics.md "Rollups").
 */
export async function seedEvents(app: TestApp, client: DataClient, events: SeedEvent[]): Promise<string[]> {
  const ids: string[] = [];
  for (const event of events) {
    const noon = Date.parse(`${dayAgo(event.daysAgo)}T12:00:00Z`);
    const data = { timestamp: new Date(Math.min(noon, Date.now())).toISOString(), ...event.data };
    const response = await client.call(`/entities/${event.externalId}/events`, { body: { eventType: event.eventType, data } });
    if (response.status !== 201) throw new Error(`event failed: ${response.text}`);
    const id = response.body.data.id as string;
    await app.deps.db.raw(
      `UPDATE entity_events SET created_at = (CAST(? AS date) + time '12:00')::timestamp AT TIME ZONE 'UTC', occurred_at = (CAST(? AS date) + time '12:00')::timestamp AT TIME ZONE 'UTC' WHERE id = ?`,
      [dayAgo(event.daysAgo), dayAgo(event.daysAgo), id],
    );
    ids.push(id);
  }
  return ids;
}

export async function seedPlayers(client: DataClient, players: Array<{ externalId: string; data?: Record<string, unknown> }>): Promise<void> {
  for (const player of players) {
    const response = await client.call('/entities', { body: { entityType: 'player', externalId: player.externalId, data: player.data ?? {} } });
    if (response.status !== 201) throw new Error(`player failed: ${response.text}`);
  }
}

/** PostgreSQL's `deadlock_detected` and `lock_not_available` (a `lock_timeout` ran out). */
const DEADLOCK = '40P01';
const LOCK_NOT_AVAILABLE = '55P03';
/** How long the rolled-back migration waits for any one lock before it gives way and tries again. */
const LOCK_TIMEOUT_MS = 200;
const GIVE_WAY_FOR_MS = 60_000;

/**
 * What `read` sees after `steps` (a migration's `down` and `up`, say) run in a transaction that is then rolled back:
 * the rollup state row is locked first, so no pass of a suite beside runs in between, and the shared database keeps
 * its tables as they were. A migration's DDL takes its tables' strongest lock (`DROP TRIGGER … ON entities`, say)
 * while suites beside it read and write them, and an event's insert waiting on that lock closed a cycle with it:
 * PostgreSQL breaks a cycle by failing the waiter that has waited a second first, here the insert, which answered 500
 * to its suite. So every table a migration of the rollups touches, and the events' and players' tables, are locked up
 * front, before the steps, which then wait for no one; and no lock is waited for longer than `LOCK_TIMEOUT_MS`: a
 * statement waiting on this transaction has waited less than that, far from the second, when it gives way (it is
 * rolled back in any case) and runs again after a pause, for up to `GIVE_WAY_FOR_MS`.
 */
export async function readAfterRolledBack<T>(db: Db, steps: Array<(trx: Db) => Promise<void>>, read: (trx: Db) => Promise<T>): Promise<T> {
  const deadline = Date.now() + GIVE_WAY_FOR_MS;
  for (;;) {
    let seen: T | undefined;
    const outcome = await db
      .transaction(async (trx) => {
        await trx.raw(`SELECT set_config('lock_timeout', ?, true)`, [`${LOCK_TIMEOUT_MS}ms`]);
        await trx.raw('SELECT 1 FROM analytics_rollup_state WHERE id = 1 FOR UPDATE');
        await trx.raw(
          `DO $$ BEGIN EXECUTE 'LOCK TABLE entities, entity_events, outbox_events, ' || (SELECT string_agg(quote_ident(tablename), ', ')
             FROM pg_tables WHERE schemaname = current_schema() AND tablename LIKE 'analytics\\_%') || ' IN ACCESS EXCLUSIVE MODE'; END $$`,
        );
        for (const step of steps) await step(trx);
        seen = await read(trx);
        throw new Error('roll back');
      })
      .catch((error: Error & { code?: string }) => {
        if ((error.code === DEADLOCK || error.code === LOCK_NOT_AVAILABLE) && Date.now() < deadline) return 'gave way';
        if (error.message !== 'roll back') throw error;
        return 'read';
      });
    if (outcome === 'read') return seen as T;
    await new Promise((resolve) => setTimeout(resolve, 50 + Math.random() * 200));
  }
}
