import type { ActivityInterceptorsFactory } from '@temporalio/worker';

/**
 * Every activity scheduled with a heartbeat timeout heartbeats while it runs, whether or not its own code does, so
 * the timeout means "the worker running it is gone" and can be a few seconds: a worker SIGKILLed mid-activity is
 * noticed after that timeout instead of the activity's whole start-to-close timeout (docs/production.md, recovery
 * after a worker is lost). A hung activity is still cut by its start-to-close timeout. Heartbeats carry no details
 * (no activity of the platform reads them back) and the SDK sends at most one a second (`HEARTBEAT_THROTTLE`).
 */
export function livenessHeartbeat(): ActivityInterceptorsFactory {
  return (context) => ({
    inbound: {
      async execute(input, next) {
        const timeoutMs = context.info.heartbeatTimeoutMs;
        if (context.info.isLocal || !timeoutMs) return next(input);
        const timer = setInterval(() => context.heartbeat(), Math.max(100, Math.min(1000, timeoutMs / 4)));
        try {
          return await next(input);
        } finally {
          clearInterval(timer);
        }
      },
    },
  });
}
