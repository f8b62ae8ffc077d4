import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { ConfigError, type Config } from '../core/config';

/**
 * A secret generated on first use and kept under `DATA_DIR/secrets/` (mode 0600), so a developer's
 * sessions survive restarts without configuring anything. Production must configure its own.
 */
export function devSecret(dataDir: string, name: string): string {
  const dir = path.join(dataDir, 'secrets');
  const file = path.join(dir, name);
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const secret = randomBytes(48).toString('hex');
  writeFileSync(file, secret, { mode: 0o600, flag: 'wx' });
  chmodSync(file, 0o600);
  return secret;
}

/** The session-signing secret: `JWT_SECRET`, else (outside production) the generated dev secret. */
export function resolveJwtSecret(config: Config): string {
  if (config.JWT_SECRET) return config.JWT_SECRET;
  if (config.NODE_ENV === 'production') throw new ConfigError(['JWT_SECRET: is required when NODE_ENV=production']);
  return devSecret(config.DATA_DIR, 'jwt-secret');
}
