import type { Knex } from 'knex';
import type { Db } from './knex';
import { getSettings, type OperatorSettings } from './queries/settings';
import type { ReadThroughCache } from './readThroughCache';

/**
 * The one way an operator's settings and template are read (docs/api.md "Commands and their answers"): the API
 * holds a cached one (`deps.settings`), a job or script reads them stored, a command already in a transaction
 * reads them through that transaction. A command that changes them says so (`changed`), so the cache it may sit on
 * answers the change in this process at once; other processes hear it from the change feed.
 */
export interface SettingsPort {
  /** The operator's settings with its template; the defaults when never set. */
  of(operatorId: string): Promise<OperatorSettings>;
  /** The operator's settings were just changed by this process: the next `of` reads them anew. */
  changed(operatorId: string): void;
}

/** Settings read from the database every time, through a pool or a transaction (a read in it sees its writes). */
export function storedSettings(runner: Db | Knex.Transaction): SettingsPort {
  return { of: (operatorId) => getSettings(runner, operatorId), changed: () => undefined };
}

/**
 * Settings in front of a read-through cache (api/caches.ts: held for `CACHE_TTL_MS` while the change feed is live,
 * dropped on every notified change of `operator_settings`).
 */
export function cachedSettings(db: Db, cache: ReadThroughCache<OperatorSettings>): SettingsPort {
  return {
    of: async (operatorId) => (await cache.get(operatorId, () => getSettings(db, operatorId)))!,
    changed: (operatorId) => cache.invalidate(operatorId),
  };
}
