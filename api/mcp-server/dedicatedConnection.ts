import type { Logger } from 'pino';
import { ReconnectingListener } from '../../db/listener';

export const PROGRESS_CHANNEL = 'mcp_progress';
/** NOTIFYed with an operator id by the `automations_mcp_tools_changed` trigger when that operator's tool list changes. */
export const TOOLS_CHANGED_CHANNEL = 'mcp_tools_changed';

export { connectionStringOf } from '../../db/changeFeed';

const errorOf = (error: Error) => ({ name: error.name, message: error.message });

/**
 * One PostgreSQL connection outside the pool, owned by the MCP event streams of this API instance: it LISTENs
 * for progress frames published by any instance and for tool-list changes, and holds the advisory locks of the
 * operators' stream slots (a lock belongs to its session, so the locks go wherever this connection goes).
 * It exists only while this instance serves at least one stream (`connect` / `end`); when it drops unexpectedly
 * it reconnects with backoff and calls `onReconnected` so the owner can take its locks again.
 */
export class DedicatedConnection {
  private readonly listener: ReconnectingListener;

  constructor(options: {
    connectionString: string;
    channels: readonly string[];
    logger: Logger;
    onNotification: (channel: string, payload: string | undefined) => void;
    onReconnected: () => Promise<void>;
  }) {
    this.listener = new ReconnectingListener({
      connectionString: options.connectionString,
      applicationName: 'mcp-event-streams',
      channels: options.channels,
      onNotification: options.onNotification,
      onListening: options.onReconnected,
      onLost: (error) => options.logger.warn({ err: error ? errorOf(error) : undefined }, 'MCP stream connection lost'),
      onAttemptFailed: (error) => options.logger.warn({ err: errorOf(error) }, 'MCP stream connection: reconnect failed'),
      backoff: { initialMs: 250, maxMs: 5000 },
    });
  }

  get connected(): boolean {
    return this.listener.listening;
  }

  /** Connects (and LISTENs) unless already connected. */
  connect(): Promise<void> {
    return this.listener.connect();
  }

  /** `SELECT pg_try_advisory_lock(key)`: true when this connection now holds the lock. */
  async tryLock(key: string): Promise<boolean> {
    if (!this.connected) throw new Error('the MCP stream connection is not connected');
    const [row] = await this.listener.query<{ ok: boolean }>('SELECT pg_try_advisory_lock($1::bigint) AS ok', [key]);
    return row?.ok === true;
  }

  async unlock(key: string): Promise<void> {
    if (!this.connected) return;
    await this.listener.query('SELECT pg_advisory_unlock($1::bigint)', [key]);
  }

  /** Closes the connection for good (until the next `connect`); its advisory locks go with it. */
  end(): Promise<void> {
    return this.listener.close();
  }
}
