import type { ChangeListener } from '../../db/changeFeed';
import { ReadThroughCache } from '../../db/readThroughCache';

/** A change feed driven by the test: `live` and the notifications are what a real LISTEN connection would give. */
function feed(live = true) {
  const listeners = new Set<ChangeListener>();
  return {
    live,
    subscribe: (listener: ChangeListener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    emit: (change: Parameters<ChangeListener>[0]) => listeners.forEach((listener) => listener(change)),
  };
}

describe('ReadThroughCache', () => {
  it('loads once while the feed is live and the entry fresh', async () => {
    const cache = new ReadThroughCache<number>(feed(), { table: 't', ttlMs: 60_000 });
    let loads = 0;
    const load = async () => ++loads;
    expect(await cache.get('k', load)).toBe(1);
    expect(await cache.get('k', load)).toBe(1);
    expect(loads).toBe(1);
  });

  it('reads through while the feed is down, and does not keep misses', async () => {
    const down = new ReadThroughCache<number>(feed(false), { table: 't', ttlMs: 60_000 });
    let loads = 0;
    await down.get('k', async () => ++loads);
    await down.get('k', async () => ++loads);
    expect(loads).toBe(2);
    const live = new ReadThroughCache<number>(feed(), { table: 't', ttlMs: 60_000 });
    let misses = 0;
    await live.get('gone', async () => (misses++, undefined));
    await live.get('gone', async () => (misses++, undefined));
    expect(misses).toBe(2);
  });

  it('drops an entry on its table’s notification and everything on a reset', async () => {
    const changes = feed();
    const cache = new ReadThroughCache<string>(changes, { table: 'api_keys', ttlMs: 60_000 });
    await cache.get('a', async () => 'a1');
    await cache.get('b', async () => 'b1');
    changes.emit({ table: 'members', key: 'a' });
    expect(await cache.get('a', async () => 'a2')).toBe('a1');
    changes.emit({ table: 'api_keys', key: 'a' });
    expect(await cache.get('a', async () => 'a2')).toBe('a2');
    changes.emit('reset');
    expect(await cache.get('b', async () => 'b2')).toBe('b2');
  });

  it('does not keep a value whose load raced an invalidation', async () => {
    const changes = feed();
    const cache = new ReadThroughCache<string>(changes, { table: 't', ttlMs: 60_000 });
    let release!: () => void;
    const slow = cache.get('k', () => new Promise<string>((resolve) => (release = () => resolve('before the change'))));
    changes.emit({ table: 't', key: 'k' });
    release();
    expect(await slow).toBe('before the change');
    expect(await cache.get('k', async () => 'after the change')).toBe('after the change');
  });

  it('expires entries after ttlMs and keeps at most maxEntries', async () => {
    const cache = new ReadThroughCache<number>(feed(), { table: 't', ttlMs: 30, maxEntries: 2 });
    await cache.get('a', async () => 1);
    await new Promise((resolve) => setTimeout(resolve, 40));
    expect(await cache.get('a', async () => 2)).toBe(2);
    await cache.get('b', async () => 1);
    await cache.get('c', async () => 1);
    expect(await cache.get('a', async () => 3)).toBe(3);
  });
});
