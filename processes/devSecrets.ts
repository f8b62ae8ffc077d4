import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { ConfigError, type Config } from '../core/config';
import { Keyring, parseDataKey } from '../core/crypto';

/**
 * A secret generated on first use and kept under `DATA_DIR/secrets/` (mode 0600), so a developer's
 * sessions survive restarts without configuring anything. Production must configure its own.
 */
export function devSecret(dataDir: string, name: string): string {
  const dir = path.join(dataDir, 'secrets');
  const file = path.join(dir, name);
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const secret = randomBytes(32).toString('hex');
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

/**
 * The keyring for PII and credentials: `DATA_ENCRYPTION_KEY` (current) plus the comma-separated
 * `DATA_ENCRYPTION_PREVIOUS_KEYS` still needed to read older rows; outside production a generated
 * dev key under `DATA_DIR/secrets/`.
 */
export function resolveKeyring(config: Config): Keyring {
  let current = config.DATA_ENCRYPTION_KEY;
  if (!current) {
    if (config.NODE_ENV === 'production') throw new ConfigError(['DATA_ENCRYPTION_KEY: is required when NODE_ENV=production']);
    current = devSecret(config.DATA_DIR, 'data-encryption-key');
  }
  const previous = (config.DATA_ENCRYPTION_PREVIOUS_KEYS ?? '')
    .split(',')
    .map((key) => key.trim())
    .filter(Boolean);
  try {
    return new Keyring(parseDataKey(current), previous.map(parseDataKey));
  } catch (error) {
    throw new ConfigError([`DATA_ENCRYPTION_KEY / DATA_ENCRYPTION_PREVIOUS_KEYS: ${(error as Error).message}`]);
  }
}
