import type { Logger } from 'pino';
import { recordApiKeyUses } from '../commands/apiKeys/usage';
import type { Db } from '../db/knex';

/**
 * Keeps `lastUsedAt` current without a database write per request: uses are buffered in memory and recorded every
 * `intervalMs` in one set-based write (commands/apiKeys/usage.ts), and once more on shutdown. A failed write keeps
 * the batch for the next flush.
 */
export class KeyUsageTracker {
  private pending = new Map<string, Date>();
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly db: Db,
    private readonly intervalMs: number,
    private readonly logger: Logger,
  ) {}

  record(keyId: string): void {
    this.pending.set(keyId, new Date());
  }

  start(): void {
    this.timer ??= setInterval(() => void this.flush(), this.intervalMs);
    this.timer.unref();
  }

  async flush(): Promise<void> {
    if (this.pending.size === 0) return;
    const batch = [...this.pending].map(([id, usedAt]) => ({ id, usedAt }));
    this.pending = new Map();
    try {
      await recordApiKeyUses({ db: this.db }, batch);
    } catch (error) {
      this.logger.warn({ err: { message: (error as Error).message }, keys: batch.length }, 'could not record API key usage');
      for (const { id, usedAt } of batch) if (!this.pending.has(id)) this.pending.set(id, usedAt);
    }
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    await this.flush();
  }
}
