import { randomBytes } from 'node:crypto';
import { Client, Connection, defaultGrpcRetryOptions, makeGrpcRetryInterceptor, type ConnectionLike } from '@temporalio/client';
import { OpenTelemetryWorkflowClientInterceptor } from '@temporalio/interceptors-opentelemetry/lib/client';
import type { Keyring } from '../core/crypto';
import { activeTracing } from '../core/tracing';
import { closedChannelGuard } from './closedChannelGuard';
import type { TemporalConnectionOptions } from './connectionOptions';
import { explainConnectFailure } from './tlsDiagnosis';
import { platformDataConverter, type PayloadLimits } from './dataConverter';
import { GatewayLanes } from './gatewayCalls';
import { PayloadRefs } from './payloadRefs';
import type { TaskQueues } from './taskQueues';

/**
 * The one way into Temporal, built once per process: the client, the task queues starts use, and
 * the gateway lanes of this process. Every start, update and query goes through a starter of this folder.
 */
export interface TemporalClient {
  client: Client;
  connection: ConnectionLike;
  /** The interactive queue (`temporal/taskQueues.ts`): every start someone waits on. */
  taskQueue: string;
  /** The waiting queue: run-control lanes, and runs of an automation with a node that holds its run. */
  waitingTaskQueue: string;
  /** The background queue: batch ingestion, retention, analytics, the platform Schedules. Never eager. */
  backgroundTaskQueue: string;
  /**
   * Whether starts on the interactive and waiting queues ask the server to hand the new workflow's first task straight
   * back in the start response (`requestEagerStart`): only when a worker of this process shares the connection and
   * polls them.
   */
  eagerStart: boolean;
  /** Names this process's gateway lanes, so two API instances never share one. */
  instanceId: string;
  gatewayLanes: GatewayLanes;
  /** Reads back the stored values that references in activity results and run outcomes stand for (given `payloads`). */
  payloadRefs?: PayloadRefs;
  /** Closes the connection unless it is a worker's, which the worker closes. */
  close(): Promise<void>;
}

interface ClientOptions {
  namespace: string;
  taskQueues: TaskQueues;
  /** Seals every payload this client sends (`temporal/payloadCodec.ts`); the worker's keyring must open them. */
  keyring: Keyring;
  /** Keeps every payload under Temporal's limits (`temporal/claimCheckCodec.ts`); every process with a database gives it. */
  payloads?: PayloadLimits;
}

function temporalClient(connection: ConnectionLike, options: ClientOptions & { eagerStart: boolean; close: () => Promise<void> }): TemporalClient {
  const client = new Client({
    connection,
    namespace: options.namespace,
    dataConverter: platformDataConverter(options.keyring, options.namespace, options.payloads),
    // Starts, updates and signals carry the caller's trace to the workflow (core/tracing.ts); nothing when tracing is off.
    ...(activeTracing() ? { interceptors: { workflow: [new OpenTelemetryWorkflowClientInterceptor()] } } : {}),
  });
  const instanceId = randomBytes(4).toString('hex');
  const base = { client, taskQueue: options.taskQueues.interactive, eagerStart: options.eagerStart, instanceId };
  const payloads = options.payloads;
  return {
    ...base,
    waitingTaskQueue: options.taskQueues.waiting,
    backgroundTaskQueue: options.taskQueues.background,
    connection,
    gatewayLanes: new GatewayLanes(base),
    ...(payloads ? { payloadRefs: new PayloadRefs(payloads.store, options.keyring, options.namespace, payloads.maxBytes) } : {}),
    close: options.close,
  };
}

/**
 * Connects a client of its own (an API process without a worker), with TLS and the API key when configured
 * (`temporal/connectionOptions.ts`). It retries for `waitMs` so a process started together with its Temporal server
 * does not race it.
 */
export async function connectTemporal(options: ClientOptions & TemporalConnectionOptions & { waitMs?: number }): Promise<TemporalClient> {
  const deadline = Date.now() + (options.waitMs ?? 30_000);
  for (;;) {
    try {
      const connection = await Connection.connect({
        address: options.address,
        ...(options.tls !== undefined ? { tls: options.tls } : {}),
        ...(options.apiKey !== undefined ? { apiKey: options.apiKey } : {}),
        connectTimeout: 5000,
        interceptors: [makeGrpcRetryInterceptor(defaultGrpcRetryOptions()), closedChannelGuard],
      });
      return temporalClient(connection, { ...options, eagerStart: false, close: () => connection.close() });
    } catch (error) {
      if (Date.now() > deadline) throw await explainConnectFailure(options, error);
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
  }
}

/**
 * A client on the connection of a worker running in this process (`npm start`, benchmarks): interactive starts are
 * eager when that worker polls the interactive queue, so a new workflow's first task skips matching and the poll
 * that would otherwise fetch it.
 *
 * @example const temporal = temporalClientOnWorker(worker.connection, { namespace, taskQueues, keyring, pollsInteractive: true })
 */
export function temporalClientOnWorker(connection: ConnectionLike, options: ClientOptions & { pollsInteractive: boolean }): TemporalClient {
  return temporalClient(connection, { ...options, eagerStart: options.pollsInteractive, close: async () => undefined });
}

/** Whether the Temporal server answers (`GET /healthz`): one cheap RPC on the existing connection. */
export async function temporalReachable(temporal: Pick<TemporalClient, 'connection'>): Promise<void> {
  await temporal.connection.workflowService.getSystemInfo({});
}
