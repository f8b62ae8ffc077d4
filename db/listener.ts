import pg from 'pg';

/** The n-th consecutive wait before another attempt is `initialMs · 2^(n-1)`, at most `maxMs`; equal values give a fixed pause. */
export interface Backoff {
  initialMs: number;
  maxMs: number;
}

export interface ReconnectingListenerOptions {
  connectionString: string;
  /** Tells the dedicated connections apart in `pg_stat_activity` (and lets a test find the one to terminate). */
  applicationName: string;
  channels: readonly string[];
  onNotification(channel: string, payload: string | undefined): void;
  /**
   * Called once a background attempt (`start`'s, or a reconnect after a drop) LISTENs: notifications sent while
   * no connection listened are gone, so this is where an owner catches up. Not called after `connect`, whose
   * caller carries on by itself; a rejection fails the attempt (the connection is dropped and tried again).
   */
  onListening?(): void | Promise<void>;
  /** The connection dropped (`error` is absent when it ended without one); a reconnect is already scheduled. */
  onLost?(error: Error | undefined): void;
  /** A background attempt failed; the next follows after the backoff. */
  onAttemptFailed?(error: Error): void;
  backoff?: Backoff;
}

const DEFAULT_BACKOFF: Backoff = { initialMs: 250, maxMs: 5000 };

/**
 * One PostgreSQL connection outside the pool that LISTENs on a few channels and, when it drops (a restart, a
 * terminated backend, a network cut), LISTENs again with backoff until it is closed. Notifications are not
 * queued for a listener that is away, which is why owners get `onLost` and `onListening` to flush or catch up.
 * The pool cannot serve this: LISTEN belongs to a session, and a pooled session goes back to other queries.
 *
 * @example
 * const listener = new ReconnectingListener({ connectionString, applicationName: 'operator-platform-cache-feed',
 *   channels: ['cache_invalidation'], onNotification: (channel, payload) => …, onListening: () => flush() });
 * listener.start();
 */
export class ReconnectingListener {
  private client: pg.Client | null = null;
  private attempt: Promise<void> | null = null;
  private wanted = false;
  private retryTimer: NodeJS.Timeout | undefined;
  private readonly backoff: Backoff;
  private delayMs: number;

  constructor(private readonly options: ReconnectingListenerOptions) {
    this.backoff = options.backoff ?? DEFAULT_BACKOFF;
    this.delayMs = this.backoff.initialMs;
  }

  /** True while the connection is up and LISTENing. */
  get listening(): boolean {
    return this.client !== null;
  }

  /** Connects in the background and keeps trying, with backoff, until `close`. */
  start(): void {
    this.wanted = true;
    if (this.client || this.attempt || this.retryTimer) return;
    void this.reconnect();
  }

  /** Connects now and rejects when that fails (no retry is scheduled for it); later drops reconnect in the background. */
  async connect(): Promise<void> {
    this.wanted = true;
    await this.establish();
    this.delayMs = this.backoff.initialMs;
  }

  /** Runs a statement on the listening session itself (advisory locks live there); rejects when not connected. */
  async query<R extends pg.QueryResultRow>(text: string, values: unknown[] = []): Promise<R[]> {
    if (!this.client) throw new Error(`the ${this.options.applicationName} connection is not connected`);
    return (await this.client.query<R>(text, values)).rows;
  }

  /** Closes the connection and stops reconnecting, until the next `start` or `connect`. */
  async close(): Promise<void> {
    this.wanted = false;
    clearTimeout(this.retryTimer);
    this.retryTimer = undefined;
    const client = this.client;
    this.client = null;
    await client?.end().catch(() => undefined);
  }

  /** One attempt at a time: a caller arriving while one is under way shares its outcome. */
  private establish(): Promise<void> {
    if (this.client) return Promise.resolve();
    this.attempt ??= this.open().finally(() => {
      this.attempt = null;
    });
    return this.attempt;
  }

  private async open(): Promise<void> {
    const client = new pg.Client({ connectionString: this.options.connectionString, application_name: this.options.applicationName });
    client.on('error', (error) => this.lost(client, error));
    client.on('end', () => this.lost(client));
    client.on('notification', (message) => {
      if (this.options.channels.includes(message.channel)) this.options.onNotification(message.channel, message.payload);
    });
    try {
      await client.connect();
      for (const channel of this.options.channels) await client.query(`LISTEN ${client.escapeIdentifier(channel)}`);
    } catch (error) {
      await client.end().catch(() => undefined);
      throw error;
    }
    if (!this.wanted) {
      await client.end().catch(() => undefined);
      return;
    }
    this.client = client;
  }

  private async reconnect(): Promise<void> {
    if (!this.wanted) return;
    try {
      await this.establish();
      if (!this.client) return;
      await this.options.onListening?.();
      this.delayMs = this.backoff.initialMs;
    } catch (error) {
      if (!this.wanted) return;
      this.options.onAttemptFailed?.(error as Error);
      const client = this.client;
      this.client = null;
      client?.end().catch(() => undefined);
      this.retry();
    }
  }

  private lost(client: pg.Client, error?: Error): void {
    if (this.client !== client) return;
    this.client = null;
    client.end().catch(() => undefined);
    this.retry();
    this.options.onLost?.(error);
  }

  private retry(): void {
    if (!this.wanted || this.retryTimer) return;
    const wait = this.delayMs;
    this.delayMs = Math.min(wait * 2, this.backoff.maxMs);
    this.retryTimer = setTimeout(() => {
      this.retryTimer = undefined;
      void this.reconnect();
    }, wait);
    this.retryTimer.unref();
  }
}
