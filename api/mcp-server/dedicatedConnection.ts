import pg from 'pg';
import type { Logger } from 'pino';

export const PROGRESS_CHANNEL = 'mcp_progress';
/** NOTIFYed with an operator id by the `workflows_mcp_tools_changed` trigger when that operator's tool list changes. */
export const TOOLS_CHANGED_CHANNEL = 'mcp_tools_changed';

export { connectionStringOf } from '../../db/changeFeed';

/**
 * One PostgreSQL connection outside the pool, owned by the MCP event streams of this API instance: it LISTENs
 * for progress frames published by any instance and for tool-list changes, and holds the advisory locks of the
 * operators' stream slots.
 * It exists only while this instance serves at least one stream (`connect` / `end`); when it drops unexpectedly
 * it reconnects with backoff and calls `onReconnected` so the owner can take its locks again.
 */
export class DedicatedConnection {
  private client: pg.Client | null = null;
  private wanted = false;
  private retryTimer: NodeJS.Timeout | undefined;
  private retryDelayMs = 250;

  constructor(
    private readonly options: {
      connectionString: string;
      channels: readonly string[];
      logger: Logger;
      onNotification: (channel: string, payload: string | undefined) => void;
      onReconnected: () => Promise<void>;
    },
  ) {}

  get connected(): boolean {
    return this.client !== null;
  }

  /** Connects (and LISTENs) unless already connected. */
  async connect(): Promise<void> {
    this.wanted = true;
    if (this.client) return;
    const client = new pg.Client({ connectionString: this.options.connectionString, application_name: 'mcp-event-streams' });
    client.on('error', (error) => this.lost(client, error));
    client.on('end', () => this.lost(client));
    client.on('notification', (message) => {
      if (this.options.channels.includes(message.channel)) this.options.onNotification(message.channel, message.payload);
    });
    try {
      await client.connect();
      for (const channel of this.options.channels) await client.query(`LISTEN ${channel}`);
    } catch (error) {
      client.removeAllListeners('end');
      await client.end().catch(() => undefined);
      throw error;
    }
    this.client = client;
    this.retryDelayMs = 250;
  }

  /** `SELECT pg_try_advisory_lock(key)`: true when this connection now holds the lock. */
  async tryLock(key: string): Promise<boolean> {
    const result = await this.requireClient().query<{ ok: boolean }>('SELECT pg_try_advisory_lock($1::bigint) AS ok', [key]);
    return result.rows[0]?.ok === true;
  }

  async unlock(key: string): Promise<void> {
    if (!this.client) return;
    await this.client.query('SELECT pg_advisory_unlock($1::bigint)', [key]);
  }

  /** Closes the connection for good (until the next `connect`); its advisory locks go with it. */
  async end(): Promise<void> {
    this.wanted = false;
    clearTimeout(this.retryTimer);
    this.retryTimer = undefined;
    const client = this.client;
    this.client = null;
    if (client) await client.end().catch(() => undefined);
  }

  private requireClient(): pg.Client {
    if (!this.client) throw new Error('the MCP stream connection is not connected');
    return this.client;
  }

  private lost(client: pg.Client, error?: Error): void {
    if (this.client !== client) return;
    this.client = null;
    this.options.logger.warn({ err: error ? { name: error.name, message: error.message } : undefined }, 'MCP stream connection lost');
    client.end().catch(() => undefined);
    this.scheduleReconnect();
  }

  private scheduleReconnect(): void {
    if (!this.wanted || this.retryTimer) return;
    this.retryTimer = setTimeout(() => {
      this.retryTimer = undefined;
      if (!this.wanted) return;
      this.connect()
        .then(() => this.options.onReconnected())
        .catch((error: Error) => {
          this.options.logger.warn({ err: { name: error.name, message: error.message } }, 'MCP stream connection: reconnect failed');
          this.retryDelayMs = Math.min(this.retryDelayMs * 2, 5000);
          this.client?.end().catch(() => undefined);
          this.client = null;
          this.scheduleReconnect();
        });
    }, this.retryDelayMs);
    this.retryTimer.unref();
  }
}
