import { spawn } from 'node:child_process';
import { closeSync, mkdirSync, openSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { stringify } from 'yaml';

const READY_TIMEOUT_MS = 30_000;

export interface TemporalUi {
  url: string;
  stop(): Promise<void>;
}

export interface TemporalUiOptions {
  /** `temporal-ui-server` from the cache (`temporalServerBinary.ts`). */
  binary: string;
  /** Holds the generated `config/development.yaml` and `temporal-ui.log`. */
  dir: string;
  port: number;
  temporalAddress: string;
  /** The API's `/temporal-codec`, so an Owner reads sealed payloads in the UI (docs/temporal-codec.md). */
  codecEndpoint?: string;
}

/**
 * The Temporal Web UI server in front of a frontend on loopback, configured as the CLI's dev server configures the
 * copy it embeds (insecure cookies on plain HTTP, the remote codec). Resolves once the UI answers HTTP.
 */
export async function startTemporalUi(options: TemporalUiOptions): Promise<TemporalUi> {
  const configDir = path.join(options.dir, 'config');
  mkdirSync(configDir, { recursive: true });
  writeFileSync(
    path.join(configDir, 'development.yaml'),
    stringify({
      temporalGrpcAddress: options.temporalAddress,
      host: '127.0.0.1',
      port: options.port,
      enableUi: true,
      cors: { cookieInsecure: true },
      hideLogs: true,
      ...(options.codecEndpoint ? { codec: { endpoint: options.codecEndpoint } } : {}),
    }),
  );
  const fd = openSync(path.join(options.dir, 'temporal-ui.log'), 'a');
  const child = spawn(options.binary, ['--root', options.dir, '--config', 'config', '--env', 'development', 'start'], { stdio: ['ignore', fd, fd] });
  closeSync(fd);
  const orphaned = () => child.kill('SIGTERM');
  process.once('exit', orphaned);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  void exited.then(() => process.removeListener('exit', orphaned));
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    await exited;
  };
  const url = `http://127.0.0.1:${options.port}`;
  const deadline = Date.now() + READY_TIMEOUT_MS;
  while (
    !(await fetch(url).then(
      (response) => response.ok,
      () => false,
    ))
  ) {
    if (child.exitCode !== null || Date.now() > deadline) {
      await stop();
      throw new Error(`the Temporal UI did not answer on ${url} (see ${path.join(options.dir, 'temporal-ui.log')})`);
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  return { url, stop };
}
