import { existsSync, statSync } from 'node:fs';
import path from 'node:path';

/** Content types of what Vite emits; anything else is not served. */
export const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.json': 'application/json; charset=utf-8',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.txt': 'text/plain; charset=utf-8',
};

/**
 * Where the built dashboard lives: `web/dist` beside the sources when run with tsx (`api/dashboard` →
 * repository root), or beside `dist/` when run compiled (`dist/api/dashboard` → repository root).
 */
export function findDashboardDir(from: string = __dirname): string | undefined {
  const candidates = [path.resolve(from, '../../web/dist'), path.resolve(from, '../../../web/dist')];
  return candidates.find((dir) => existsSync(path.join(dir, 'index.html')));
}

/**
 * Maps a request path to a file inside `root`, or nothing: no NUL, no dot segments, no escaping the
 * root (after decoding), only regular files of a known type.
 */
export function fileFor(root: string, requestPath: string): { file: string; type: string } | undefined {
  let decoded: string;
  try {
    decoded = decodeURIComponent(requestPath);
  } catch {
    return undefined;
  }
  if (decoded.includes('\0') || decoded.split(/[\\/]/).some((segment) => segment === '..' || segment === '.')) return undefined;
  const file = path.resolve(root, `.${decoded}`);
  if (!file.startsWith(`${root}${path.sep}`)) return undefined;
  const type = CONTENT_TYPES[path.extname(file)];
  if (!type) return undefined;
  try {
    return statSync(file).isFile() ? { file, type } : undefined;
  } catch {
    return undefined;
  }
}

/** The precompressed sibling (`.br`, else `.gz`) the client accepts, written by `npm run build:web`. */
export function encodedVariant(file: string, acceptEncoding: string): { file: string; encoding: 'br' | 'gzip' } | undefined {
  const accepts = (coding: string) => new RegExp(`(^|[,\\s])${coding}(;q=(?!0(\\.0*)?\\b)[\\d.]+)?\\s*(,|$)`).test(acceptEncoding);
  if (accepts('br') && existsSync(`${file}.br`)) return { file: `${file}.br`, encoding: 'br' };
  if (accepts('gzip') && existsSync(`${file}.gz`)) return { file: `${file}.gz`, encoding: 'gzip' };
  return undefined;
}
