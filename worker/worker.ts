import { DefaultLogger, NativeConnection, Runtime, Worker, type LogLevel } from '@temporalio/worker';
import type { Logger } from 'pino';
import { createActivities } from '../activities';
import type { Config } from '../core/config';
import type { Db } from '../db/knex';
import { resolveKeyring } from '../services/devSecrets';

let runtimeInstalled = false;

/** Routes the SDK's own log lines (warnings and up) into our structured logger; once per process. */
function installRuntimeLogger(logger: Logger): void {
  if (runtimeInstalled) return;
  runtimeInstalled = true;
  Runtime.install({
    logger: new DefaultLogger('WARN' as LogLevel, (entry) => {
      const level = entry.level === 'ERROR' ? 'error' : 'warn';
      logger[level]({ temporal: entry.meta }, entry.message);
    }),
  });
}

export interface RunningWorker {
  worker: Worker;
  connection: NativeConnection;
}

/**
 * Creates the Temporal worker for the configured task queue with every workflow and activity. It uses
 * a prebuilt workflow bundle when `WORKFLOW_BUNDLE_PATH` is set (tests build it once), and bundles
 * `workflows/` at start otherwise.
 */
export async function createWorker(options: { config: Config; db: Db; logger: Logger; address: string }): Promise<RunningWorker> {
  installRuntimeLogger(options.logger);
  const connection = await NativeConnection.connect({ address: options.address });
  const worker = await Worker.create({
    connection,
    namespace: options.config.TEMPORAL_NAMESPACE,
    taskQueue: options.config.TEMPORAL_TASK_QUEUE,
    // On shutdown, in-flight activities get 10 s to finish, then are cancelled (Temporal retries them elsewhere).
    shutdownGraceTime: '10 seconds',
    shutdownForceTime: '20 seconds',
    activities: createActivities({ db: options.db, config: options.config, logger: options.logger, keyring: resolveKeyring(options.config) }),
    ...(options.config.WORKFLOW_BUNDLE_PATH
      ? { workflowBundle: { codePath: options.config.WORKFLOW_BUNDLE_PATH } }
      : { workflowsPath: require.resolve('../workflows') }),
  });
  return { worker, connection };
}
