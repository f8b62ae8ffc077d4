import { bundleWorkflowCode, DefaultLogger, NativeConnection, Runtime, Worker, type LogLevel } from '@temporalio/worker';
import type { Logger } from 'pino';
import { createActivities } from '../activities';
import { createGatewayCaches } from '../activities/gateway/caches';
import { IntakePacer } from '../activities/intakePacer';
import { PayloadBudget } from '../activities/payloadBudget';
import type { Config } from '../core/config';
import type { Keyring } from '../core/crypto';
import { ChangeFeed, connectionStringOf } from '../db/changeFeed';
import { createDb, type Db } from '../db/knex';
import { postgresPayloadStore } from '../db/queries/temporalPayloads';
import { startEventRun } from '../temporal/automationRuns';
import { cancelKeyedRuns, laneRunning, startKeyedRun } from '../temporal/keyedRuns';
import { signalWaitingRun } from '../temporal/runWaits';
import { runQueuesBacklogMs } from '../temporal/taskQueueBacklog';
import { ExpressionSandbox } from '../sandbox/expressionSandbox';
import { temporalClientOnWorker, type TemporalClient } from '../temporal/client';
import { temporalConnectionOptions } from '../temporal/connectionOptions';
import { taskQueuesOf } from '../temporal/taskQueues';
import { explainConnectFailure } from '../temporal/tlsDiagnosis';
import { platformDataConverter, type PayloadLimits } from '../temporal/dataConverter';
import { PayloadRefs } from '../temporal/payloadRefs';
import { watchBacklog } from './backlogWatch';
import { workflowBundleOptions } from './workflowBundle';
import { startEventDispatcher } from './eventDispatcher';
import { StartAdmission } from './startAdmission';
import { BatchedEvaluations } from './batchedEvaluations';
import { EventFilters } from './eventFilters';
import { RunControlDispatch } from './runControl';
import { LaneKeyCap } from './laneKeys';
import { InFlightRuns } from './inFlight';
import { lanePlaces } from './lanePlaces';
import { WokenWaits } from './runWaitSignals';
import { livenessHeartbeat } from './livenessHeartbeat';
import { payloadRefInterceptor } from './payloadRefInterceptor';
import { activityTracingInterceptors, workflowTracingSinks } from './tracing';
import { reconcileRuns } from './runWatchdog';
import { createWorkerMetrics, workerTelemetry } from './metrics';
import { EventRouter } from './eventRouting';
import { DISPATCH_POOL_SIZE, OutboxDispatcher, type DispatchDeps } from './outboxDispatch';
import { HEARTBEAT_THROTTLE, polledQueues, STICKY_SCHEDULE_TO_START, WorkerGroup, type PolledQueue } from './workerGroup';

let runtimeInstalled = false;
/** The longest the minute sweep waits on the dispatcher: under a steady stream it is never idle, and the sweep must end. */
const SWEEP_DRAIN_MS = 60_000;

/**
 * Routes the SDK's own log lines (warnings and up) into our structured logger and, with WORKER_METRICS_PORT, starts
 * the runtime's Prometheus exporter; once per process, before its first connection.
 */
function installRuntimeLogger(logger: Logger, config: Config): void {
  if (runtimeInstalled) return;
  runtimeInstalled = true;
  const telemetryOptions = workerTelemetry(config);
  Runtime.install({
    ...(telemetryOptions ? { telemetryOptions } : {}),
    logger: new DefaultLogger('WARN' as LogLevel, (entry) => {
      const level = entry.level === 'ERROR' ? 'error' : 'warn';
      logger[level]({ temporal: entry.meta }, entry.message);
    }),
  });
}

/**
 * The workers' connection, with TLS and the API key when configured (`temporal/connectionOptions.ts`); a failed
 * handshake is reported in its own words (`temporal/tlsDiagnosis.ts`).
 */
export async function connectWorker(config: Config, address: string): Promise<NativeConnection> {
  const options = temporalConnectionOptions(config, address);
  try {
    return await NativeConnection.connect(options);
  } catch (error) {
    throw await explainConnectFailure(options, error);
  }
}

export interface RunningWorker {
  /** One worker per polled queue (`WORKER_QUEUES`), on one connection. */
  worker: WorkerGroup;
  queues: PolledQueue[];
  connection: NativeConnection;
  /** A client on the worker's connection: an API in the same process uses it for eager starts. */
  temporal: TemporalClient;
  /** Stops the event dispatcher and closes the connections; call after `worker.run()` resolved. */
  close(): Promise<void>;
}

/**
 * Creates the Temporal workers of this process, one per polled task queue (`worker/workerGroup.ts`), each with every
 * workflow and activity, so either role can finish work found on its queue. It uses
 * a prebuilt workflow bundle when `WORKFLOW_BUNDLE_PATH` is set (tests build it once), and bundles
 * `workflows/` at start otherwise. Unless `EVENT_DISPATCH_ENABLED` is off, the process also runs the event
 * dispatcher (LISTEN on the outbox), so every worker shares the dispatch of event-driven triggers. The process
 * hands in the `keyring` (processes/devSecrets.ts): where secrets come from is its business, not the worker's.
 */
export async function createWorker(options: {
  config: Config;
  db: Db;
  logger: Logger;
  address: string;
  databaseUrl: string;
  keyring: Keyring;
}): Promise<RunningWorker> {
  installRuntimeLogger(options.logger, options.config);
  const connection = await connectWorker(options.config, options.address);
  const keyring = options.keyring;
  const namespace = options.config.TEMPORAL_NAMESPACE;
  const metrics = createWorkerMetrics();
  const payloads: PayloadLimits = {
    store: postgresPayloadStore(options.db),
    maxBytes: options.config.TEMPORAL_PAYLOAD_MAX_BYTES,
    onStored: (bytes) => metrics.payloadStored(bytes),
  };
  const queues = polledQueues(options.config);
  const temporal = temporalClientOnWorker(connection, {
    namespace,
    taskQueues: taskQueuesOf(options.config),
    keyring,
    payloads,
    pollsInteractive: queues.some((queue) => queue.role === 'interactive'),
  });
  const { config, logger } = options;
  const sandbox = new ExpressionSandbox({
    timeoutMs: config.EXPRESSION_TIMEOUT_MS,
    memoryMb: config.EXPRESSION_MEMORY_MB,
    processes: config.EXPRESSION_PROCESSES,
    operatorShare: config.EXPRESSION_OPERATOR_SHARE,
    burstMs: config.EXPRESSION_OPERATOR_BURST_MS,
    onOverBudget: ({ operatorId, code, field }) => {
      metrics.expressionOverBudget(code);
      // A refusal is cheap and comes in floods from one operator; the counter is its record.
      if (code !== 'EXPRESSION_BUDGET_EXCEEDED') logger.warn({ operatorId, code, field }, 'tenant expression stopped by its budget');
    },
  });
  const payloadBudget = new PayloadBudget(config.LARGE_PAYLOAD_BYTES_PER_SECOND, config.LARGE_PAYLOAD_BURST_BYTES);
  const filters = new EventFilters({
    sandbox: new BatchedEvaluations(sandbox),
    logger,
    onJudged: (where) => metrics.eventFilterJudged(where),
    onFailed: (reason) => metrics.eventFilterFailed(reason),
  });
  // The dispatcher's own connections: its passes never queue behind the activities of the runs it started.
  const dispatchDb = createDb(connectionStringOf(options.db), { poolMax: DISPATCH_POOL_SIZE, applicationName: 'operator-platform-dispatch' });
  const starts = new StartAdmission(config.EVENT_RUNS_PER_SECOND, config.EVENT_RUNS_BURST);
  const runControl = new RunControlDispatch({
    sandbox,
    logger,
    startRun: (input) => startEventRun(temporal, input),
    startKeyed: (lane, trigger) => startKeyedRun(temporal, lane, trigger),
    cancelKeyed: (lane) => cancelKeyedRuns(temporal, lane),
    laneCap: new LaneKeyCap({ db: dispatchDb, logger, laneRunning: (laneId) => laneRunning(temporal, laneId), cap: config.LANE_KEYS_PER_AUTOMATION }),
    onSkipped: (reason) => metrics.triggerSkipped(reason),
  });
  const inFlight = new InFlightRuns(dispatchDb, { cap: config.RUNS_IN_FLIGHT_PER_OPERATOR, contendedCap: config.RUNS_IN_FLIGHT_CONTENDED });
  const dispatchDeps: DispatchDeps = {
    db: dispatchDb,
    logger,
    keyring,
    router: new EventRouter(filters),
    starts,
    runs: runControl,
    inFlight,
    signalWaitingRun: (workflowId, signal) => signalWaitingRun(temporal, workflowId, signal),
    woken: new WokenWaits(),
    onLag: (operatorId, seconds) => metrics.dispatchLag(operatorId, seconds),
  };
  const outbox = new OutboxDispatcher(dispatchDeps);
  const refs = new PayloadRefs(payloads.store, keyring, namespace, payloads.maxBytes);
  const feed = new ChangeFeed(connectionStringOf(options.db), logger);
  if (config.CACHE_TTL_MS > 0) feed.start();
  const activities = createActivities({
    db: options.db,
    config: options.config,
    logger: options.logger,
    keyring,
    dispatchOutbox: () => outbox.drain(SWEEP_DRAIN_MS),
    reconcileRuns: () =>
      reconcileRuns({ db: options.db, client: temporal.client, refs, keyring, logger, metrics, poisonAttempts: config.RUN_POISON_TASK_ATTEMPTS }),
    sandbox,
    payloadBudget,
    // Batch chunks yield to other organisations' runs this worker's dispatcher started or woke lately.
    intake: new IntakePacer((operatorId) => inFlight.othersActive(operatorId)),
    lanePlaces: lanePlaces(starts, inFlight),
    // A run's start delay is also what the start admission follows (worker/startAdmission.ts).
    metrics: {
      ...metrics,
      runBegun: (source, seconds) => {
        metrics.runBegun(source, seconds);
        starts.noteStartDelay(seconds * 1000);
      },
    },
    gatewayCaches: createGatewayCaches(feed, config.CACHE_TTL_MS),
  });
  const workflows = options.config.WORKFLOW_BUNDLE_PATH
    ? { workflowBundle: { codePath: options.config.WORKFLOW_BUNDLE_PATH } }
    : {
        workflowBundle: await bundleWorkflowCode(workflowBundleOptions()),
      };
  const workers = await Promise.all(
    queues.map((queue) =>
      Worker.create({
        connection,
        namespace,
        taskQueue: queue.taskQueue,
        ...queue.slots,
        stickyQueueScheduleToStartTimeout: STICKY_SCHEDULE_TO_START,
        // Polls enough of the fair queue that an organisation's first task is not held behind another's sticky backlog.
        nonStickyToStickyPollRatio: config.WORKER_NONSTICKY_POLL_RATIO,
        // A number, not the heap-sized default: a small container would evict its own lanes (docs/workflows.md "Runs a worker keeps between tasks").
        maxCachedWorkflows: config.WORKER_MAX_CACHED_WORKFLOWS,
        maxHeartbeatThrottleInterval: HEARTBEAT_THROTTLE,
        // The same codec as every client: what the worker sends back (results, Update outcomes, heartbeats, failures) is sealed too.
        dataConverter: platformDataConverter(keyring, namespace, payloads),
        interceptors: { activity: [...activityTracingInterceptors(), livenessHeartbeat(), payloadRefInterceptor(refs, payloadBudget)] },
        sinks: workflowTracingSinks(),
        // On shutdown, in-flight activities get 10 s to finish, then are cancelled (Temporal retries them elsewhere).
        shutdownGraceTime: '10 seconds',
        shutdownForceTime: '20 seconds',
        activities,
        ...workflows,
      }),
    ),
  );
  const dispatcher = options.config.EVENT_DISPATCH_ENABLED ? startEventDispatcher(outbox, logger, options.databaseUrl) : null;
  const backlog = dispatcher ? watchBacklog(starts, (signal) => runQueuesBacklogMs(temporal, signal), logger, metrics.startAdmission) : null;
  return {
    worker: new WorkerGroup(workers),
    queues,
    connection,
    temporal,
    async close() {
      backlog?.stop();
      await (dispatcher ?? outbox).stop();
      await dispatchDb.destroy();
      await feed.stop();
      await sandbox.close();
      await connection.close();
    },
  };
}
