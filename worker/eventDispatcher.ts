import { ReconnectingListener } from '../db/listener';
import { dispatchPendingEvents, type DispatchDeps } from './outboxDispatch';

/** NOTIFYed by the `outbox_events_notify` trigger when a pending event is written. */
const OUTBOX_CHANNEL = 'outbox_events';
/** The pause between passes while notifications keep arriving; the first event after a quiet spell goes at once. */
const BUSY_PASS_INTERVAL_MS = 20;
/** Between attempts to LISTEN again: the sweep covers the gap, so a steady second is enough. */
const RECONNECT_MS = 1000;

export interface EventDispatcher {
  stop(): Promise<void>;
}

/**
 * The fast path of event-driven triggers: LISTENs on `outbox_events` (notified when a writer's
 * transaction commits) and dispatches pending events at once, coalescing bursts into one pass at a time.
 * Losing the connection loses nothing — events stay pending, the dispatcher reconnects and drains (a pass
 * follows every LISTEN, the first included), and the `outbox-sweep` Schedule catches up within a minute
 * whatever happens here.
 *
 * @example const dispatcher = startEventDispatcher({ db, logger, keyring, startEventRun }, databaseUrl)
 */
export function startEventDispatcher(deps: DispatchDeps, databaseUrl: string): EventDispatcher {
  let stopped = false;
  let running: Promise<void> | null = null;
  let again = false;

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

  const listener = new ReconnectingListener({
    connectionString: databaseUrl,
    applicationName: 'operator-platform-dispatcher',
    channels: [OUTBOX_CHANNEL],
    onNotification: pass,
    onListening: pass,
    onLost: (error) => deps.logger.warn({ err: error?.message }, 'event dispatcher lost its database connection; reconnecting'),
    onAttemptFailed: (error) => deps.logger.warn({ err: error.message }, 'event dispatcher could not listen; retrying'),
    backoff: { initialMs: RECONNECT_MS, maxMs: RECONNECT_MS },
  });
  listener.start();

  return {
    async stop() {
      stopped = true;
      await listener.close();
      await running;
    },
  };
}
