import type { Logger } from 'pino';
import type { StartAdmission } from './startAdmission';

const LOOK_EVERY_MS = 1_000;

export interface BacklogWatch {
  stop(): void;
}

/**
 * Looks at Temporal's run queues (interactive, waiting) once a second and hands their backlog to the start
 * admission, which follows it (worker/startAdmission.ts). A look that fails (Temporal unreachable) changes nothing: starts fail on their own then.
 * Stopping cancels a look in flight, so none outlives the worker's connection.
 */
export function watchBacklog(
  admission: StartAdmission,
  backlogMs: (signal: AbortSignal) => Promise<number>,
  logger: Logger,
  onLook?: (admittedPerSecond: number, backlogSeconds: number) => void,
): BacklogWatch {
  let last = performance.now();
  let looking = false;
  const stopped = new AbortController();
  const timer = setInterval(() => {
    if (looking || stopped.signal.aborted) return;
    looking = true;
    backlogMs(stopped.signal)
      .then((backlog) => {
        const now = performance.now();
        admission.observe(backlog, now - last);
        last = now;
        onLook?.(admission.admittedRate, backlog / 1000);
      })
      .catch((error: Error) => logger.debug({ err: error.message }, 'task queue backlog not read; start admission unchanged'))
      .finally(() => (looking = false));
  }, LOOK_EVERY_MS);
  timer.unref();
  return {
    stop: () => {
      clearInterval(timer);
      stopped.abort();
    },
  };
}
