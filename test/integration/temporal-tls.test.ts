import { randomBytes, randomUUID } from 'node:crypto';
import http2 from 'node:http2';
import type { AddressInfo } from 'node:net';
import { NativeConnection } from '@temporalio/worker';
import { parseConfig } from '../../core/config';
import { Keyring } from '../../core/crypto';
import { connectTemporal } from '../../temporal/client';
import { temporalConnectionOptions } from '../../temporal/connectionOptions';
import { runDiagnostics } from '../../temporal/diagnostics';
import { taskQueuesOf } from '../../temporal/taskQueues';
import { startTestApp, type TestApp } from '../helpers/app';
import { connectWorker } from '../../worker/worker';
import { spawnWorker, type WorkerProcess } from '../helpers/worker';
import { removePki, startTlsTemporal, throwAwayPki, type Pki, type TlsTemporal } from './temporal-tls-server/tlsServer';

/**
 * The client (`connectTemporal`) and the worker process (`NativeConnection`) against a real Temporal server that
 * requires mutual TLS (`temporal-tls-server/main.go`: `temporal server start-dev` has no TLS option), with a
 * certificate authority, server and client certificates made by `openssl` for this run.
 */
let pki: Pki;
let server: TlsTemporal;
let app: TestApp | undefined;
let worker: WorkerProcess | undefined;
const queue = `tls-${randomUUID()}`;

const tlsEnv = () => ({
  TEMPORAL_ADDRESS: server.address,
  TEMPORAL_TASK_QUEUE: queue,
  TEMPORAL_TLS_CA_PATH: pki.ca,
  TEMPORAL_TLS_CERT_PATH: pki.clientCert,
  TEMPORAL_TLS_KEY_PATH: pki.clientKey,
  TEMPORAL_TLS_SERVER_NAME: 'localhost',
});

beforeAll(async () => {
  pki = await throwAwayPki();
  server = await startTlsTemporal(pki);
}, 20 * 60_000);

afterAll(async () => {
  await app?.close();
  await worker?.stop();
  await server?.stop();
  if (pki) removePki(pki);
});

describe('Temporal over mutual TLS', () => {
  it('runs a workflow through a worker process and an API client that connect with the CA and client certificate', async () => {
    worker = await spawnWorker({ ...tlsEnv(), LOG_LEVEL: 'info' });
    const ready = await worker.line('worker running');
    expect(JSON.parse(ready).temporal).toEqual({ tls: true, mtls: true, withApiKey: false });
    app = await startTestApp(tlsEnv());
    const result = await runDiagnostics(app.deps.temporal, 'over tls');
    expect(result.echo).toBe('over tls');
  }, 120_000);

  const connectClient = (env: Record<string, string>) => {
    const config = parseConfig(env);
    const options = temporalConnectionOptions(config, server.address);
    return connectTemporal({ ...options, namespace: 'default', taskQueues: taskQueuesOf(config), keyring: new Keyring(randomBytes(32)), waitMs: 0 });
  };

  it('refuses a client without the CA, with an error naming the unverified certificate', async () => {
    const withoutCa = { TEMPORAL_TLS_CERT_PATH: pki.clientCert, TEMPORAL_TLS_KEY_PATH: pki.clientKey };
    await expect(connectClient(withoutCa)).rejects.toThrow(
      `Temporal at ${server.address}: TLS handshake failed: UNABLE_TO_VERIFY_LEAF_SIGNATURE: unable to verify the first certificate`,
    );
    await expect(connectWorker(parseConfig(withoutCa), server.address)).rejects.toThrow(/TLS handshake failed: UNABLE_TO_VERIFY_LEAF_SIGNATURE/);
  });

  it('refuses a client without a client certificate: the server requires mutual TLS', async () => {
    const withoutPair = { TEMPORAL_TLS_CA_PATH: pki.ca, TEMPORAL_TLS_SERVER_NAME: 'localhost' };
    await expect(connectClient(withoutPair)).rejects.toThrow(/TLS handshake failed: .*CERTIFICATE_REQUIRED/);
    await expect(connectWorker(parseConfig(withoutPair), server.address)).rejects.toThrow(/TLS handshake failed: .*CERTIFICATE_REQUIRED/);
  });
});

describe('Temporal API key', () => {
  /** A cleartext HTTP/2 endpoint that records each gRPC call's `authorization` header and answers UNIMPLEMENTED. */
  async function recordingGrpcServer(): Promise<{ address: string; seen: string[]; close(): Promise<void> }> {
    const seen: string[] = [];
    const grpc = http2.createServer();
    const sessions = new Set<http2.ServerHttp2Session>();
    grpc.on('session', (session) => sessions.add(session));
    grpc.on('stream', (stream, headers) => {
      seen.push(String(headers.authorization ?? ''));
      stream.respond({ ':status': 200, 'content-type': 'application/grpc', 'grpc-status': '12', 'grpc-message': 'recorded' }, { endStream: true });
    });
    await new Promise<void>((resolve) => grpc.listen(0, '127.0.0.1', resolve));
    const { port } = grpc.address() as AddressInfo;
    const close = () =>
      new Promise<void>((resolve) => {
        grpc.close(() => resolve());
        for (const session of sessions) session.destroy();
      });
    return { address: `127.0.0.1:${port}`, seen, close };
  }

  it('is sent as `authorization: Bearer …` by the client and by the worker connection', async () => {
    const recorder = await recordingGrpcServer();
    try {
      const config = parseConfig({ TEMPORAL_API_KEY: 'tk-test-123', TEMPORAL_TLS: 'false' });
      const options = temporalConnectionOptions(config, recorder.address);
      expect(options).toEqual({ address: recorder.address, apiKey: 'tk-test-123', tls: false });
      const client = await connectTemporal({
        ...options,
        namespace: 'default',
        taskQueues: taskQueuesOf(config),
        keyring: new Keyring(randomBytes(32)),
        waitMs: 0,
      });
      await client.close();
      // The worker's connection gives up on the UNIMPLEMENTED answer, after sending the header.
      await expect(NativeConnection.connect(options)).rejects.toThrow(/GetSystemInfo/);
      expect(recorder.seen.length).toBeGreaterThanOrEqual(2);
      expect(new Set(recorder.seen)).toEqual(new Set(['Bearer tk-test-123']));
    } finally {
      await recorder.close();
    }
  });

  it('turns TLS on by itself, as Temporal Cloud requires, unless TEMPORAL_TLS=false', () => {
    expect(temporalConnectionOptions(parseConfig({ TEMPORAL_API_KEY: 'k' }), 'a:7233')).toEqual({ address: 'a:7233', apiKey: 'k', tls: {} });
    expect(temporalConnectionOptions(parseConfig({}), 'a:7233')).toEqual({ address: 'a:7233' });
  });
});
