import { randomBytes } from 'node:crypto';
import { loadConfig } from '../../core/config';
import { Keyring } from '../../core/crypto';
import { createLogger } from '../../core/logger';
import { ChangeFeed, CACHE_INVALIDATION_CHANNEL, type ChangeListener } from '../../db/changeFeed';
import { createDb, type Db } from '../../db/knex';
import { ReconnectingListener, type ReconnectingListenerOptions } from '../../db/listener';
import { EventFilters } from '../../worker/eventFilters';
import { startEventDispatcher } from '../../worker/eventDispatcher';
import { EventRouter } from '../../worker/eventRouting';
import { OutboxDispatcher } from '../../worker/outboxDispatch';

const databaseUrl = loadConfig().DATABASE_URL!;
let db: Db;

beforeAll(() => {
  db = createDb(databaseUrl, { poolMax: 2, applicationName: 'listener-test' });
});
afterAll(() => db.destroy());

async function waitFor(what: string, condition: () => boolean | Promise<boolean>, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** The backends of one application name that are LISTENing, as PostgreSQL sees them. */
async function backendsOf(applicationName: string): Promise<number[]> {
  const result = await db.raw<{ rows: Array<{ pid: number }> }>(
    "SELECT pid FROM pg_stat_activity WHERE application_name = ? AND query LIKE 'LISTEN %' ORDER BY pid",
    [applicationName],
  );
  return result.rows.map((row) => row.pid);
}

const terminate = (pid: number) => db.raw('SELECT pg_terminate_backend(?)', [pid]);
const notify = (channel: string, payload: string) => db.raw('SELECT pg_notify(?, ?)', [channel, payload]);
const unique = (prefix: string) => `${prefix}_${randomBytes(4).toString('hex')}`;

/** The test database's URL with its own application name, so the test finds (and terminates) its own backend only. */
function urlNamed(applicationName: string, extra: Record<string, string> = {}): string {
  const url = new URL(databaseUrl);
  for (const [key, value] of Object.entries({ application_name: applicationName, ...extra })) url.searchParams.set(key, value);
  return url.toString();
}

/** A listener on a channel of its own, recording what it is told. */
function recordingListener(overrides: Partial<ReconnectingListenerOptions> = {}) {
  const channel = unique('listener_test');
  const applicationName = unique('listener-test');
  const seen = { payloads: [] as string[], listening: 0, lost: [] as Array<Error | undefined>, failed: [] as Error[] };
  const listener = new ReconnectingListener({
    connectionString: databaseUrl,
    applicationName,
    channels: [channel],
    onNotification: (_channel, payload) => seen.payloads.push(payload ?? ''),
    onListening: () => {
      seen.listening += 1;
    },
    onLost: (error) => seen.lost.push(error),
    onAttemptFailed: (error) => seen.failed.push(error),
    backoff: { initialMs: 50, maxMs: 200 },
    ...overrides,
  });
  return { listener, channel, seen, applicationName };
}

describe('ReconnectingListener', () => {
  it('delivers its channels only, LISTENs again after pg_terminate_backend and delivers again', async () => {
    const { listener, channel, seen, applicationName } = recordingListener();
    try {
      listener.start();
      await waitFor('the first LISTEN', () => seen.listening === 1);
      await notify(channel, 'before');
      await notify(unique('other_channel'), 'elsewhere');
      await waitFor('the first notification', () => seen.payloads.includes('before'));
      const [before] = await backendsOf(applicationName);
      await terminate(before!);
      await waitFor('the drop', () => seen.lost.length === 1);
      expect(seen.lost[0]).toBeInstanceOf(Error);
      await waitFor('the second LISTEN', () => seen.listening === 2 && listener.listening);
      const after = await backendsOf(applicationName);
      expect(after).toHaveLength(1);
      expect(after[0]).not.toBe(before);
      await notify(channel, 'after');
      await waitFor('the notification after the reconnect', () => seen.payloads.includes('after'));
      expect(seen.payloads).toEqual(['before', 'after']);
    } finally {
      await listener.close();
    }
  });

  it('connect() reports its own failure and retries nothing; a drop after it reconnects and calls onListening', async () => {
    const refused = recordingListener({ connectionString: 'postgres://nobody:wrong@127.0.0.1:1/none' });
    await expect(refused.listener.connect()).rejects.toThrow();
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(refused.seen.failed).toEqual([]);
    await refused.listener.close();

    const { listener, channel, seen } = recordingListener();
    const channels = async () => (await listener.query<{ channel: string }>('SELECT pg_listening_channels() AS channel')).map((row) => row.channel);
    try {
      await listener.connect();
      expect(listener.listening).toBe(true);
      expect(seen.listening).toBe(0);
      expect(await channels()).toEqual([channel]);
      const [before] = await listener.query<{ pid: number }>('SELECT pg_backend_pid() AS pid');
      await terminate(before!.pid);
      await waitFor('the reconnect', () => seen.listening === 1 && listener.listening);
      const [after] = await listener.query<{ pid: number }>('SELECT pg_backend_pid() AS pid');
      expect(after!.pid).not.toBe(before!.pid);
      expect(await channels()).toEqual([channel]);
    } finally {
      await listener.close();
    }
  });

  it('start() keeps trying with backoff until close()', async () => {
    const { listener, seen } = recordingListener({ connectionString: 'postgres://nobody:wrong@127.0.0.1:1/none', backoff: { initialMs: 40, maxMs: 80 } });
    listener.start();
    await waitFor('three failed attempts', () => seen.failed.length >= 3);
    await listener.close();
    const failed = seen.failed.length;
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(seen.failed.length).toBe(failed);
    expect(listener.listening).toBe(false);
  });

  it('an onListening that rejects fails the attempt: the connection is dropped and tried again', async () => {
    let calls = 0;
    const { listener, seen } = recordingListener({
      onListening: async () => {
        calls += 1;
        if (calls === 1) throw new Error('not yet');
      },
    });
    try {
      listener.start();
      await waitFor('the second attempt', () => calls === 2 && listener.listening);
      expect(seen.failed.map((error) => error.message)).toEqual(['not yet']);
    } finally {
      await listener.close();
    }
  });

  it('close() ends the connection and no reconnect follows', async () => {
    const { listener, seen, applicationName } = recordingListener();
    listener.start();
    await waitFor('the LISTEN', () => listener.listening);
    await listener.close();
    await waitFor('the backend to go', async () => (await backendsOf(applicationName)).length === 0);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(seen.listening).toBe(1);
    expect(seen.lost).toEqual([]);
    expect(listener.listening).toBe(false);
  });
});

describe('ChangeFeed', () => {
  it('goes not live and resets caches when its connection is terminated, then resets again and delivers changes once it is back', async () => {
    const applicationName = unique('change-feed-test');
    const feed = new ChangeFeed(urlNamed(applicationName), createLogger('silent'));
    const changes: Array<Parameters<ChangeListener>[0]> = [];
    feed.subscribe((change) => changes.push(change));
    try {
      feed.start();
      // The channel is every suite's: other suites' invalidations may arrive in between, so only resets and our own change count.
      const resets = () => changes.filter((change) => change === 'reset').length;
      await waitFor('the feed to be live', () => feed.live);
      expect(resets()).toBe(1);
      const [pid] = await backendsOf(applicationName);
      await terminate(pid!);
      await waitFor('the feed to come back', async () => resets() === 3 && feed.live && (await backendsOf(applicationName)).length === 1);
      await notify(CACHE_INVALIDATION_CHANNEL, 'listener_test:k');
      await waitFor('the change', () => changes.some((change) => change !== 'reset' && change.table === 'listener_test'));
      expect(changes.filter((change) => change !== 'reset' && change.table === 'listener_test')).toEqual([{ table: 'listener_test', key: 'k' }]);
      expect(resets()).toBe(3);
    } finally {
      await feed.stop();
    }
  });
});

describe('the event dispatcher', () => {
  const schema = unique('listener_test');

  beforeAll(async () => {
    await db.raw(`CREATE SCHEMA ${schema}`);
    await db.raw(`CREATE TABLE ${schema}.outbox_events (LIKE public.outbox_events INCLUDING ALL)`);
  });
  afterAll(() => db.raw(`DROP SCHEMA ${schema} CASCADE`));

  it('runs a catch-up pass after it LISTENs again, and passes on notifications after that', async () => {
    // The passes read an empty outbox of their own (search_path), so this dispatcher never takes another test's events.
    const dispatcherDb = createDb(urlNamed('listener-test-dispatch', { options: `-c search_path=${schema},public` }), { poolMax: 2 });
    const acquire = dispatcherDb.client.acquireConnection.bind(dispatcherDb.client);
    let passes = 0;
    // A pass with nothing to start is one settle statement on one pooled connection: counting those counts passes.
    dispatcherDb.client.acquireConnection = () => {
      passes += 1;
      return acquire();
    };
    const applicationName = unique('dispatcher-test');
    const outbox = new OutboxDispatcher({
      db: dispatcherDb,
      logger: createLogger('silent'),
      keyring: new Keyring(randomBytes(32)),
      router: new EventRouter(new EventFilters({ sandbox: { evaluate: async () => ({ ok: true, value: true }) }, logger: createLogger('silent') })),
      runs: { start: async () => 'started', cancel: async () => undefined },
    });
    const dispatcher = startEventDispatcher(outbox, createLogger('silent'), urlNamed(applicationName));
    try {
      await waitFor('the dispatcher to LISTEN', async () => (await backendsOf(applicationName)).length === 1);
      await waitFor('the first pass', () => passes >= 1);
      const [before] = await backendsOf(applicationName);
      const passesBefore = passes;
      await terminate(before!);
      await waitFor('the dispatcher to LISTEN again', async () => (await backendsOf(applicationName)).some((pid) => pid !== before));
      await waitFor('the catch-up pass', () => passes > passesBefore);
      const afterReconnect = passes;
      await notify('outbox_events', '');
      await waitFor('a pass on notification', () => passes > afterReconnect);
    } finally {
      await dispatcher.stop();
      await dispatcherDb.destroy();
    }
  });
});
