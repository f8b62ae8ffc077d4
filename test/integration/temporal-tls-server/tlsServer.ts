import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import readline from 'node:readline';
import { promisify } from 'node:util';
import { freePort } from '../../../devstack/freePort';

const run = promisify(execFile);
const SOURCE = __dirname;

/** The PEM files of one throw-away PKI: a CA, the server's pair (localhost, 127.0.0.1) and a client's pair. */
export interface Pki {
  dir: string;
  ca: string;
  serverCert: string;
  serverKey: string;
  clientCert: string;
  clientKey: string;
}

/** A CA, a server certificate for localhost/127.0.0.1 and a client certificate, all by `openssl`, valid one day. */
export async function throwAwayPki(): Promise<Pki> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'temporal-tls-'));
  const at = (name: string) => path.join(dir, name);
  const openssl = (args: string[]) => run('openssl', args, { cwd: dir });
  await openssl(['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', 'ca.key', '-out', 'ca.pem', '-days', '1', '-subj', '/CN=throw-away test CA']);
  writeFileSync(at('server.ext'), 'subjectAltName=DNS:localhost,IP:127.0.0.1\nextendedKeyUsage=serverAuth,clientAuth\n');
  writeFileSync(at('client.ext'), 'extendedKeyUsage=clientAuth\n');
  for (const [name, subject] of [
    ['server', '/CN=localhost'],
    ['client', '/CN=operator-platform-worker'],
  ] as const) {
    await openssl(['req', '-newkey', 'rsa:2048', '-nodes', '-keyout', `${name}.key`, '-out', `${name}.csr`, '-subj', subject]);
    await openssl([
      'x509',
      '-req',
      '-in',
      `${name}.csr`,
      '-CA',
      'ca.pem',
      '-CAkey',
      'ca.key',
      '-CAcreateserial',
      '-out',
      `${name}.pem`,
      '-days',
      '1',
      '-extfile',
      `${name}.ext`,
    ]);
  }
  return { dir, ca: at('ca.pem'), serverCert: at('server.pem'), serverKey: at('server.key'), clientCert: at('client.pem'), clientKey: at('client.key') };
}

/**
 * The TLS server binary (`main.go` beside this file), built once per source version into the platform's cache with
 * the Go toolchain and module cache the Temporal CLI was built with (no network: GOPROXY=off).
 */
async function serverBinary(): Promise<string> {
  const hash = createHash('sha256');
  for (const file of ['main.go', 'go.mod', 'go.sum']) hash.update(readFileSync(path.join(SOURCE, file)));
  const base = process.env.XDG_CACHE_HOME || path.join(os.homedir(), '.cache');
  const binary = path.join(base, 'operator-platform', 'temporal-tls-server', hash.digest('hex').slice(0, 16), 'server');
  if (existsSync(binary)) return binary;
  mkdirSync(path.dirname(binary), { recursive: true });
  const partial = `${binary}.${process.pid}`;
  await run('go', ['build', '-o', partial, '.'], {
    cwd: SOURCE,
    env: { ...process.env, GOFLAGS: '-mod=mod', GOPROXY: 'off', GOTOOLCHAIN: 'local' },
    timeout: 15 * 60_000,
    maxBuffer: 16 * 1024 * 1024,
  });
  renameSync(partial, binary);
  return binary;
}

export interface TlsTemporal {
  address: string;
  stop(): Promise<void>;
}

/** A real Temporal server requiring mutual TLS with the given PKI, on free loopback ports; in-memory. */
export async function startTlsTemporal(pki: Pki): Promise<TlsTemporal> {
  const binary = await serverBinary();
  const [port, ...internal] = await Promise.all(Array.from({ length: 5 }, () => freePort()));
  const child: ChildProcess = spawn(
    binary,
    [
      ...['-port', String(port), '-internal-ports', internal.join(',')],
      ...['-cert', pki.serverCert, '-key', pki.serverKey, '-ca', pki.ca, '-client-cert', pki.clientCert, '-client-key', pki.clientKey],
    ],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  const errors: string[] = [];
  child.stderr!.on('data', (chunk: Buffer) => errors.push(chunk.toString()));
  await new Promise<void>((resolve, reject) => {
    const lines = readline.createInterface({ input: child.stdout! });
    lines.on('line', (line) => {
      if (line.includes('temporal-tls-server ready')) resolve();
    });
    child.once('exit', (code) => reject(new Error(`TLS Temporal server exited with ${code}: ${errors.join('').slice(-2000)}`)));
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return {
    address: `127.0.0.1:${port}`,
    async stop() {
      child.kill('SIGTERM');
      const force = setTimeout(() => child.kill('SIGKILL'), 10_000);
      await exited;
      clearTimeout(force);
    },
  };
}

export function removePki(pki: Pki): void {
  rmSync(pki.dir, { recursive: true, force: true });
}
