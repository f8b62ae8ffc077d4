import type { Logger } from 'pino';
import { ReconnectingListener } from '../db/listener';
import type { OutboxDispatcher } from './outboxDispatch';

/** NOTIFYed by the `outbox_events_notify` trigger when a pending event is written. */
const OUTBOX_CHANNEL = 'outbox_events';
/** Under a stream of notifications, one look for pending events per this many milliseconds; the first goes at once. */
const BUSY_LOOK_INTERVAL_MS = 20;
/** Between attempts to LISTEN again: the sweep covers the gap, so a steady second is enough. */
const RECONNECT_MS = 1000;

export interface EventDispatcher {
  stop(): Promise<void>;
}

/**
 * The fast path of event-driven triggers: LISTENs on `outbox_events` (notified when a writer's transaction commits) and
 * has the process's {@link OutboxDispatcher} look for pending events at once, coalescing a stream of notifications into
 * one look per {@link BUSY_LOOK_INTERVAL_MS}. Losing the connection loses nothing — events stay pending, the listener
 * reconnects and looks again (a look follows every LISTEN, the first included), and the `outbox-sweep` Schedule catches
 * up within a minute whatever happens here.
 *
 * @example const listening = startEventDispatcher(dispatcher, logger, databaseUrl)
 */
export function startEventDispatcher(dispatcher: OutboxDispatcher, logger: Logger, databaseUrl: string): EventDispatcher {
  let stopped = false;
  let lastLook = 0;
  let planned: NodeJS.Timeout | undefined;

  const look = (): void => {
    if (stopped || planned) return;
    const wait = Math.max(0, lastLook + BUSY_LOOK_INTERVAL_MS - Date.now());
    planned = setTimeout(() => {
      planned = undefined;
      lastLook = Date.now();
      dispatcher.kick().catch((error: Error) => logger.warn({ err: error.message }, 'event dispatch failed; events stay pending'));
    }, wait);
  };

  const listener = new ReconnectingListener({
    connectionString: databaseUrl,
    applicationName: 'operator-platform-dispatcher',
    channels: [OUTBOX_CHANNEL],
    onNotification: look,
    onListening: look,
    onLost: (error) => logger.warn({ err: error?.message }, 'event dispatcher lost its database connection; reconnecting'),
    onAttemptFailed: (error) => logger.warn({ err: error.message }, 'event dispatcher could not listen; retrying'),
    backoff: { initialMs: RECONNECT_MS, maxMs: RECONNECT_MS },
  });
  listener.start();

  return {
    async stop() {
      stopped = true;
      clearTimeout(planned);
      await listener.close();
      await dispatcher.stop();
    },
  };
}
