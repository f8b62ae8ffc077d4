import { randomBytes } from 'node:crypto';
import { Client, Connection, defaultGrpcRetryOptions, makeGrpcRetryInterceptor, type ConnectionLike } from '@temporalio/client';
import type { Keyring } from '../core/crypto';
import { closedChannelGuard } from './closedChannelGuard';
import { platformDataConverter, type PayloadLimits } from './dataConverter';
import { GatewayLanes } from './gatewayCalls';

/**
 * The one way into Temporal, built once per process: the client, the task queue every start uses, and
 * the gateway lanes of this process. Every start, update and query goes through a starter of this folder.
 */
export interface TemporalClient {
  client: Client;
  connection: ConnectionLike;
  taskQueue: string;
  /**
   * Whether starts ask the server to hand the new workflow's first task straight back in the start
   * response (`requestEagerStart`): only when a worker of this process shares the connection.
   */
  eagerStart: boolean;
  /** Names this process's gateway lanes, so two API instances never share one. */
  instanceId: string;
  gatewayLanes: GatewayLanes;
  /** Closes the connection unless it is a worker's, which the worker closes. */
  close(): Promise<void>;
}

interface ClientOptions {
  namespace: string;
  taskQueue: string;
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
  });
  const instanceId = randomBytes(4).toString('hex');
  const base = { client, taskQueue: options.taskQueue, eagerStart: options.eagerStart, instanceId };
  return { ...base, connection, gatewayLanes: new GatewayLanes(base), close: options.close };
}

/**
 * Connects a client of its own (an API process without a worker). It retries for `waitMs` so a process
 * started together with its Temporal server does not race it.
 */
export async function connectTemporal(options: ClientOptions & { address: string; waitMs?: number }): Promise<TemporalClient> {
  const deadline = Date.now() + (options.waitMs ?? 30_000);
  for (;;) {
    try {
      const connection = await Connection.connect({
        address: options.address,
        connectTimeout: 5000,
        interceptors: [makeGrpcRetryInterceptor(defaultGrpcRetryOptions()), closedChannelGuard],
      });
      return temporalClient(connection, { ...options, eagerStart: false, close: () => connection.close() });
    } catch (error) {
      if (Date.now() > deadline) throw error;
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
  }
}

/**
 * A client on the connection of a worker running in this process (`npm start`, benchmarks): starts are
 * eager, so a new workflow's first task skips matching and the poll that would otherwise fetch it.
 *
 * @example const temporal = temporalClientOnWorker(worker.connection, { namespace, taskQueue, keyring })
 */
export function temporalClientOnWorker(connection: ConnectionLike, options: ClientOptions): TemporalClient {
  return temporalClient(connection, { ...options, eagerStart: true, close: async () => undefined });
}

/** Whether the Temporal server answers (`GET /healthz`): one cheap RPC on the existing connection. */
export async function temporalReachable(temporal: Pick<TemporalClient, 'connection'>): Promise<void> {
  await temporal.connection.workflowService.getSystemInfo({});
}
