import type { Logger } from 'pino';
import type { StartAdmission } from './startAdmission';

const LOOK_EVERY_MS = 1_000;

export interface BacklogWatch {
  stop(): void;
}

/**
 * Looks at Temporal's interactive queue once a second and hands its backlog to the start admission, which follows it
 * (worker/startAdmission.ts). A look that fails (Temporal unreachable) changes nothing: starts fail on their own then.
 */
export function watchBacklog(
  admission: StartAdmission,
  backlogMs: () => Promise<number>,
  logger: Logger,
  onLook?: (admittedPerSecond: number, backlogSeconds: number) => void,
): BacklogWatch {
  let last = performance.now();
  let looking = false;
  const timer = setInterval(() => {
    if (looking) return;
    looking = true;
    backlogMs()
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
  return { stop: () => clearInterval(timer) };
}
