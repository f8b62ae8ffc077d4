import { createHash } from 'node:crypto';
import { existsSync, renameSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type * as Esbuild from 'esbuild';

const scripts = new Map<string, string>();

/**
 * The script a separate thread or process runs: `<dir>/<name>.js` in a build, or — running from TypeScript sources
 * (`npm start`, tests, fault runs) — `<dir>/<name>.ts` bundled once with esbuild (tsx's own) into the temp directory,
 * because a thread or child started through tsx takes ~170 ms more to come up. The file is named by its content's hash,
 * so processes of different checkouts never share one, and it is written under a temporary name and renamed, so a
 * concurrent reader never sees half of it.
 *
 * @param caller the calling module's `__filename`: `.ts` means running from sources
 */
export function bundledScript(caller: string, dir: string, name: string): string {
  const key = path.join(dir, name);
  const known = scripts.get(key);
  if (known) return known;
  const file = caller.endsWith('.ts') ? bundle(dir, name) : path.join(dir, `${name}.js`);
  scripts.set(key, file);
  return file;
}

function bundle(dir: string, name: string): string {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- only when running from sources, where tsx brings esbuild
  const esbuild = require('esbuild') as typeof Esbuild;
  const built = esbuild.buildSync({
    entryPoints: [path.join(dir, `${name}.ts`)],
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    write: false,
    logLevel: 'error',
  });
  const code = built.outputFiles[0]!.contents;
  const hash = createHash('sha256').update(code).digest('hex').slice(0, 16);
  const file = path.join(os.tmpdir(), `operator-platform-${name}-${hash}.js`);
  if (!existsSync(file)) {
    const partial = `${file}.${process.pid}`;
    writeFileSync(partial, code);
    renameSync(partial, file);
  }
  return file;
}
