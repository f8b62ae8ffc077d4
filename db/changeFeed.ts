import pg from 'pg';
import type { Logger } from 'pino';
import type { Db } from './knex';

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
  private client: pg.Client | null = null;
  private listeners = new Set<ChangeListener>();
  private stopped = false;
  private retryTimer: NodeJS.Timeout | undefined;
  private retryDelayMs = 250;

  constructor(
    private readonly connectionString: string,
    private readonly logger: Logger,
  ) {}

  /** True while notifications are being received: only then may a cache answer from memory. */
  get live(): boolean {
    return this.client !== null;
  }

  subscribe(listener: ChangeListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  start(): void {
    void this.connect();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.retryTimer);
    const client = this.client;
    this.client = null;
    await client?.end().catch(() => undefined);
  }

  private emit(change: Parameters<ChangeListener>[0]): void {
    for (const listener of this.listeners) listener(change);
  }

  private async connect(): Promise<void> {
    if (this.stopped) return;
    const client = new pg.Client({ connectionString: this.connectionString, application_name: 'operator-platform-cache-feed' });
    client.on('notification', (message) => {
      const payload = message.payload ?? '';
      const colon = payload.indexOf(':');
      if (colon > 0) this.emit({ table: payload.slice(0, colon), key: payload.slice(colon + 1) });
    });
    client.on('error', (error) => this.lost(client, error));
    client.on('end', () => this.lost(client));
    try {
      await client.connect();
      await client.query(`LISTEN ${CACHE_INVALIDATION_CHANNEL}`);
    } catch (error) {
      client.removeAllListeners('end');
      await client.end().catch(() => undefined);
      this.retry(error as Error);
      return;
    }
    if (this.stopped) {
      await client.end().catch(() => undefined);
      return;
    }
    this.client = client;
    this.retryDelayMs = 250;
    this.emit('reset');
  }

  private lost(client: pg.Client, error?: Error): void {
    if (this.client !== client) return;
    this.client = null;
    this.emit('reset');
    client.end().catch(() => undefined);
    this.retry(error);
  }

  private retry(error?: Error): void {
    if (this.stopped || this.retryTimer) return;
    if (error) this.logger.warn({ err: { name: error.name, message: error.message } }, 'cache invalidation feed lost; caches read through until it is back');
    this.retryTimer = setTimeout(() => {
      this.retryTimer = undefined;
      void this.connect();
    }, this.retryDelayMs);
    this.retryTimer.unref();
    this.retryDelayMs = Math.min(this.retryDelayMs * 2, 5000);
  }
}
