import type { ChangeFeed } from './changeFeed';

interface Entry<V> {
  value: V;
  expiresAt: number;
}

/**
 * A small in-process cache in front of rows read on every request (API keys, members, operator settings, MCP tools).
 * It answers from memory only while the change feed is live, for at most `ttlMs`; every notified change of its
 * table drops the entry, a feed reset drops everything, and a load that raced an invalidation is not kept
 * (a generation counter), so a revocation is never undone by a read that started before it. Misses
 * (`undefined`) are not cached. At most `maxEntries` entries, the oldest evicted first.
 *
 * @example const key = await apiKeys.get(hash, () => findApiKeyByHash(db, hash))
 */
export class ReadThroughCache<V> {
  private readonly entries = new Map<string, Entry<V>>();
  private generation = 0;

  constructor(
    private readonly feed: Pick<ChangeFeed, 'live' | 'subscribe'>,
    /**
     * `table`: the tables whose notified changes (`<table>:<key>`) drop the entry under the same key, and with `scoped`
     * every entry under `<key>:` too (an operator's change drops all of its entries).
     */
    private readonly options: { table: string | readonly string[]; ttlMs: number; maxEntries?: number; scoped?: boolean },
  ) {
    const tables = new Set(typeof options.table === 'string' ? [options.table] : options.table);
    feed.subscribe((change) => {
      if (change === 'reset') this.clear();
      else if (tables.has(change.table)) this.invalidate(change.key);
    });
  }

  /** `keep` says whether a loaded value may be held (a value too large to hold is read through every time). */
  async get(key: string, load: () => Promise<V | undefined>, keep: (value: V) => boolean = () => true): Promise<V | undefined> {
    const enabled = this.options.ttlMs > 0 && this.feed.live;
    if (enabled) {
      const hit = this.entries.get(key);
      if (hit && hit.expiresAt > Date.now()) return hit.value;
    }
    const generation = this.generation;
    const value = await load();
    if (value !== undefined && enabled && this.feed.live && generation === this.generation && keep(value)) {
      this.entries.delete(key);
      this.entries.set(key, { value, expiresAt: Date.now() + this.options.ttlMs });
      if (this.entries.size > (this.options.maxEntries ?? 10_000)) this.entries.delete(this.entries.keys().next().value as string);
    }
    return value;
  }

  /** Whether `key` is held and unexpired: what a `get` would answer from memory while the feed is live. */
  has(key: string): boolean {
    const hit = this.entries.get(key);
    return hit !== undefined && hit.expiresAt > Date.now();
  }

  invalidate(key: string): void {
    this.generation += 1;
    this.entries.delete(key);
    if (!this.options.scoped) return;
    for (const held of this.entries.keys()) if (held.startsWith(`${key}:`)) this.entries.delete(held);
  }

  /** Drops everything: after a write this process made, or when changes may have been missed. */
  clear(): void {
    this.generation += 1;
    this.entries.clear();
  }
}
