import { chmodSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { assertPostgresUserCanReach, unreachableAncestor } from '../../devstack/postgresUserAccess';

/** A user that owns nothing here and is in no group of these directories: only the "others" bits count. */
const stranger = { uid: 424242, gids: [424242] };

describe("can embedded PostgreSQL's unprivileged user reach DATA_DIR", () => {
  let root: string;
  beforeEach(() => {
    root = mkdtempSync(path.join(os.tmpdir(), 'pg-access-')); // mode 0700, as `mktemp -d` makes it
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  it('names the directory it cannot enter: a mktemp -d directory (0700)', () => {
    const dataDir = path.join(root, '.data', 'postgres');
    expect(unreachableAncestor(dataDir, stranger)).toBe(root);
    expect(() => assertPostgresUserCanReach(dataDir, stranger)).toThrow(
      `Embedded PostgreSQL cannot use ${dataDir}: running as root, it runs as the unprivileged user "postgres", which cannot enter ${root} (mode 0700). ` +
        `Set DATA_DIR to a directory outside it (for example DATA_DIR=/var/lib/operator-platform), or let other users pass through it with \`chmod o+x ${root}\`, ` +
        'or set DATABASE_URL to a PostgreSQL of your own.',
    );
  });

  it('passes once others may traverse (0711), and for the owner or a group member of a 0700/0710 directory', () => {
    const dataDir = path.join(root, '.data', 'postgres');
    chmodSync(root, 0o711);
    expect(unreachableAncestor(dataDir, stranger)).toBeNull();
    chmodSync(root, 0o700);
    const owner = { uid: process.getuid!(), gids: [] };
    expect(unreachableAncestor(dataDir, owner)).toBeNull();
    chmodSync(root, 0o710);
    expect(unreachableAncestor(dataDir, { uid: stranger.uid, gids: [process.getgid!()] })).toBeNull();
  });

  it('checks a directory made with a restrictive umask too', () => {
    const inner = path.join(root, 'inner');
    mkdirSync(inner, { mode: 0o700 });
    chmodSync(root, 0o755);
    expect(unreachableAncestor(path.join(inner, 'postgres'), stranger)).toBe(inner);
  });
});
