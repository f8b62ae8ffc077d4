import type { Logger } from 'pino';
import type { Db } from './knex';
import { ReconnectingListener } from './listener';

export const CACHE_INVALIDATION_CHANNEL = 'cache_invalidation';

/** The connection string the knex pool was built with, so a dedicated connection reaches the same database. */
export function connectionStringOf(db: Db): string {
  const connection = db.client.config.connection as unknown;
  if (typeof connection === 'string') return connection;
  const value = (connection as { connectionString?: unknown } | undefined)?.connectionString;
  if (typeof value !== 'string') throw new Error('the database connection has no connection string');
  return value;
}

/** `<table>:<key>` as the `notify_cache_invalidation` trigger sends it, or `reset` when changes may have been missed. */
export type ChangeListener = (change: { table: string; key: string } | 'reset') => void;

/**
 * One connection outside the pool that LISTENs for `cache_invalidation` notifications (sent by triggers when
 * a change commits) and hands them to the caches of this process. While it is not connected, `live` is false
 * and caches read through; when it connects again, listeners get `reset`, since changes may have been missed.
 *
 * @example const feed = new ChangeFeed(connectionStringOf(db), logger); feed.start(); feed.subscribe((change) => …)
 */
export class ChangeFeed {
  private readonly listeners = new Set<ChangeListener>();
  private readonly connection: ReconnectingListener;

  constructor(connectionString: string, logger: Logger) {
    const warn = (error: Error) =>
      logger.warn({ err: { name: error.name, message: error.message } }, 'cache invalidation feed lost; caches read through until it is back');
    this.connection = new ReconnectingListener({
      connectionString,
      applicationName: 'operator-platform-cache-feed',
      channels: [CACHE_INVALIDATION_CHANNEL],
      onNotification: (_channel, payload = '') => {
        const colon = payload.indexOf(':');
        if (colon > 0) this.emit({ table: payload.slice(0, colon), key: payload.slice(colon + 1) });
      },
      onListening: () => this.emit('reset'),
      onLost: (error) => {
        this.emit('reset');
        if (error) warn(error);
      },
      onAttemptFailed: warn,
      backoff: { initialMs: 250, maxMs: 5000 },
    });
  }

  /** True while notifications are being received: only then may a cache answer from memory. */
  get live(): boolean {
    return this.connection.listening;
  }

  subscribe(listener: ChangeListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  start(): void {
    this.connection.start();
  }

  stop(): Promise<void> {
    return this.connection.close();
  }

  private emit(change: Parameters<ChangeListener>[0]): void {
    for (const listener of this.listeners) listener(change);
  }
}
