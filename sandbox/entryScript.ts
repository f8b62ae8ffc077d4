import { createHash } from 'node:crypto';
import { existsSync, renameSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type * as Esbuild from 'esbuild';

const scripts = new Map<string, string>();

/**
 * The script of a process the sandbox starts (`expressionProcess`, `launcherProcess`): the compiled `.js` of a build,
 * or — running from TypeScript sources (`npm start`, tests, fault runs) — that file bundled once with esbuild (tsx's
 * own) into the temp directory, so a process killed past its budget is replaced in ~60 ms rather than the ~170 ms tsx
 * takes to start.
 */
export function entryScript(name: 'expressionProcess' | 'launcherProcess'): string {
  const known = scripts.get(name);
  if (known) return known;
  if (!__filename.endsWith('.ts')) return remember(name, path.join(__dirname, `${name}.js`));
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- only when running from sources, where tsx brings esbuild
  const esbuild = require('esbuild') as typeof Esbuild;
  const built = esbuild.buildSync({
    entryPoints: [path.join(__dirname, `${name}.ts`)],
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    write: false,
    logLevel: 'error',
  });
  const code = built.outputFiles[0]!.contents;
  const file = path.join(os.tmpdir(), `operator-platform-${name}-${createHash('sha256').update(code).digest('hex').slice(0, 16)}.js`);
  if (!existsSync(file)) {
    const partial = `${file}.${process.pid}`;
    writeFileSync(partial, code);
    renameSync(partial, file);
  }
  return remember(name, file);
}

function remember(name: string, file: string): string {
  scripts.set(name, file);
  return file;
}
