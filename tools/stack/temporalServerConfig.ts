import { existsSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { stringify } from 'yaml';
import { freePort } from '../../devstack/freePort';

/** History shards of every PostgreSQL-backed server (`npm run cluster` and docker-compose.yml alike); fixed once a database is set up. */
export const NUM_HISTORY_SHARDS = 4;
export const TEMPORAL_DATABASE = 'temporal';
export const TEMPORAL_VISIBILITY_DATABASE = 'temporal_visibility';
const MAX_MEMBERSHIP_PORT = 32_767;

/** The loopback ports of one server: each of the four services has a gRPC and a membership port. */
export interface TemporalServerPorts {
  frontend: number;
  frontendHttp: number;
  frontendMembership: number;
  history: number;
  historyMembership: number;
  matching: number;
  matchingMembership: number;
  worker: number;
  workerMembership: number;
}

export interface PostgresEndpoint {
  host: string;
  port: number;
  user: string;
  password: string;
}

/** A file under `deploy/` (tools/ runs from the sources only: tsconfig.build.json compiles no tool into `dist/`). */
export function deployFile(name: string): string {
  const file = path.resolve(__dirname, '../../deploy', name);
  if (!existsSync(file)) throw new Error(`deploy/${name} not found`);
  return file;
}

function canListen(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = net.createServer();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}

/**
 * A free loopback port below 32768: the server records each service's membership port in PostgreSQL as a `smallint`
 * (`cluster_membership.rpc_port`), and the kernel's own choice (`freePort`) is an ephemeral port above it.
 */
async function freeMembershipPort(): Promise<number> {
  for (;;) {
    const port = 10_000 + Math.floor(Math.random() * (MAX_MEMBERSHIP_PORT - 10_000));
    if (await canListen(port)) return port;
  }
}

/** Nine free loopback ports, chosen once so a restarted server comes back where its clients look for it. */
export async function freeServerPorts(): Promise<TemporalServerPorts> {
  const [frontend, frontendHttp, history, matching, worker] = await Promise.all(Array.from({ length: 5 }, () => freePort()));
  const membership: number[] = [];
  while (membership.length < 4) {
    const port = await freeMembershipPort();
    if (!membership.includes(port)) membership.push(port);
  }
  const [frontendMembership, historyMembership, matchingMembership, workerMembership] = membership;
  return {
    frontend,
    frontendHttp,
    frontendMembership,
    history,
    historyMembership,
    matching,
    matchingMembership,
    worker,
    workerMembership,
  } as TemporalServerPorts;
}

function sqlStore(databaseName: string, postgres: PostgresEndpoint, maxConns: number) {
  return {
    sql: {
      pluginName: 'postgres12',
      databaseName,
      connectAddr: `${postgres.host}:${postgres.port}`,
      connectProtocol: 'tcp',
      user: postgres.user,
      password: postgres.password,
      maxConns,
      maxIdleConns: maxConns,
      maxConnLifetime: '1h',
    },
  };
}

function service(grpcPort: number, membershipPort: number, extra: Record<string, unknown> = {}) {
  return { rpc: { grpcPort, membershipPort, bindOnIP: '127.0.0.1', ...extra } };
}

/**
 * The server's `development.yaml`: frontend, history, matching and worker in one process on loopback, persistence and
 * visibility on PostgreSQL (postgres12 plugin), `NUM_HISTORY_SHARDS` shards, and `deploy/temporal-dynamic-config.yaml`, the
 * file the dev server and docker-compose.yml read.
 * Pools stay small: each of the four services opens its own, and the embedded PostgreSQL allows 200 connections
 * shared with the API and the workers.
 */
export function temporalServerConfigYaml(options: { ports: TemporalServerPorts; postgres: PostgresEndpoint; logLevel: string }): string {
  const { ports, postgres } = options;
  const frontendAddress = `127.0.0.1:${ports.frontend}`;
  return stringify({
    log: { stdout: true, level: options.logLevel, format: 'json' },
    persistence: {
      defaultStore: 'postgres-default',
      visibilityStore: 'postgres-visibility',
      numHistoryShards: NUM_HISTORY_SHARDS,
      datastores: {
        'postgres-default': sqlStore(TEMPORAL_DATABASE, postgres, 12),
        'postgres-visibility': sqlStore(TEMPORAL_VISIBILITY_DATABASE, postgres, 4),
      },
    },
    global: { membership: { maxJoinDuration: '30s', broadcastAddress: '127.0.0.1' } },
    services: {
      frontend: service(ports.frontend, ports.frontendMembership, { httpPort: ports.frontendHttp }),
      history: service(ports.history, ports.historyMembership),
      matching: service(ports.matching, ports.matchingMembership),
      worker: service(ports.worker, ports.workerMembership),
    },
    clusterMetadata: {
      enableGlobalNamespace: false,
      failoverVersionIncrement: 10,
      masterClusterName: 'active',
      currentClusterName: 'active',
      clusterInformation: { active: { enabled: true, initialFailoverVersion: 1, rpcName: 'frontend', rpcAddress: frontendAddress } },
    },
    dcRedirectionPolicy: { policy: 'noop' },
    archival: { history: { state: 'disabled' }, visibility: { state: 'disabled' } },
    namespaceDefaults: { archival: { history: { state: 'disabled' }, visibility: { state: 'disabled' } } },
    dynamicConfigClient: { filepath: deployFile('temporal-dynamic-config.yaml'), pollInterval: '10s' },
  });
}
