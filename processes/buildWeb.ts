/**
 * Builds the dashboard (`web/`) into `web/dist`, which the API serves at `/`: exports the API's OpenAPI
 * document, generates the dashboard's typed client from it, type-checks the dashboard against it, bundles
 * with Vite and writes Brotli and gzip siblings of every text asset (the server sends them as they are,
 * so nothing is compressed per request).
 *
 * `--if-stale` (what `npm start` passes) skips the build when `web/dist` is newer than every source file,
 * so a fresh clone builds on its first start and later starts cost nothing.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

const root = path.resolve(__dirname, '..');
const web = path.join(root, 'web');
const dist = path.join(web, 'dist');
const stamp = path.join(dist, 'index.html');
const GENERATED = new Set([path.join(web, 'src/api/openapi.json'), path.join(web, 'src/api/schema.d.ts')]);
const COMPRESSIBLE = /\.(js|css|html|svg|json|txt|map)$/;

function* files(dir: string): Generator<string> {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) yield* files(full);
    else yield full;
  }
}

function newestSource(): number {
  const sources = ['src', 'public']
    .map((dir) => path.join(web, dir))
    .filter(existsSync)
    .flatMap((dir) => [...files(dir)]);
  const configs = ['index.html', 'package.json', 'tsconfig.json', 'vite.config.ts'].map((name) => path.join(web, name)).filter(existsSync);
  return Math.max(...[...sources, ...configs].filter((file) => !GENERATED.has(file)).map((file) => statSync(file).mtimeMs));
}

function precompress(): void {
  for (const file of files(dist)) {
    if (!COMPRESSIBLE.test(file)) continue;
    const body = readFileSync(file);
    writeFileSync(
      `${file}.br`,
      brotliCompressSync(body, { params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: body.length } }),
    );
    writeFileSync(`${file}.gz`, gzipSync(body, { level: 9 }));
  }
}

if (process.argv.includes('--if-stale') && existsSync(stamp) && statSync(stamp).mtimeMs > newestSource()) process.exit(0);
process.stdout.write('building the dashboard (web/) …\n');
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
execFileSync(process.execPath, [require.resolve('tsx/cli'), path.join(root, 'processes/exportOpenapi.ts'), path.join(web, 'src/api/openapi.json')], {
  stdio: 'inherit',
  cwd: root,
});
execFileSync(npm, ['run', 'build', '--workspace', 'web'], { stdio: 'inherit', cwd: root });
precompress();
