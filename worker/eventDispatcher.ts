import pg from 'pg';
import { dispatchPendingEvents, type DispatchDeps } from './outboxDispatch';

/** The pause between passes while notifications keep arriving; the first event after a quiet spell goes at once. */
const BUSY_PASS_INTERVAL_MS = 20;

export interface EventDispatcher {
  stop(): Promise<void>;
}

/**
 * The fast path of event-driven triggers: LISTENs on `outbox_events` (notified when a writer's
 * transaction commits) and dispatches pending events at once, coalescing bursts into one pass at a time.
 * Losing the connection loses nothing — events stay pending, the dispatcher reconnects and drains, and
 * the `outbox-sweep` Schedule catches up within a minute whatever happens here.
 *
 * @example const dispatcher = startEventDispatcher({ db, logger, startEventRun }, databaseUrl)
 */
export function startEventDispatcher(deps: DispatchDeps, databaseUrl: string): EventDispatcher {
  let stopped = false;
  let running: Promise<void> | null = null;
  let again = false;
  let listener: pg.Client | null = null;
  let retryTimer: NodeJS.Timeout | null = null;

  const pass = (): void => {
    if (stopped) return;
    if (running) {
      again = true;
      return;
    }
    running = (async () => {
      do {
        again = false;
        try {
          await dispatchPendingEvents(deps);
        } catch (error) {
          deps.logger.warn({ err: (error as Error).message }, 'event dispatch failed; events stay pending');
          break;
        }
        // Under a stream of events, gather a few milliseconds' worth per pass instead of one pass per commit.
        if (again) await new Promise((resolve) => setTimeout(resolve, BUSY_PASS_INTERVAL_MS));
      } while (again && !stopped);
    })().finally(() => {
      running = null;
    });
  };

  const connect = async (): Promise<void> => {
    if (stopped) return;
    const client = new pg.Client({ connectionString: databaseUrl, application_name: 'operator-platform-dispatcher' });
    client.on('notification', pass);
    client.on('error', (error) => {
      deps.logger.warn({ err: error.message }, 'event dispatcher lost its database connection; reconnecting');
      void client.end().catch(() => undefined);
      if (listener === client) listener = null;
      retryTimer = setTimeout(() => void connect(), 1000);
    });
    try {
      await client.connect();
      await client.query('LISTEN outbox_events');
      listener = client;
      pass();
    } catch (error) {
      deps.logger.warn({ err: (error as Error).message }, 'event dispatcher could not listen; retrying');
      void client.end().catch(() => undefined);
      retryTimer = setTimeout(() => void connect(), 1000);
    }
  };
  void connect();

  return {
    async stop() {
      stopped = true;
      if (retryTimer) clearTimeout(retryTimer);
      await listener?.end().catch(() => undefined);
      await running;
    },
  };
}
