/**
 * Operator CLI: `npm run cli -- <command>`.
 *   bootstrap --org NAME --email E --password P   creates an organisation, its Owner and an API key;
 *                                                  prints one JSON line { operatorId, userId, apiKey }
 *   migrate                                        applies pending migrations
 * Uses DATABASE_URL, else the embedded PostgreSQL (started for the command if `npm start` isn't running).
 */
import path from 'node:path';
import { parseArgs } from 'node:util';
import { z } from 'zod';
import { generateApiKey, sha256Hex } from '../core/apiKeyToken';
import { loadConfig } from '../core/config';
import { hashPassword } from '../core/password';
import { createDb, type Db } from '../db/knex';
import { migrateLatest } from '../db/migrate';
import { insertApiKey } from '../db/queries/apiKeys';
import { createOrganisation } from '../db/queries/identity';
import { startEmbeddedPostgres } from '../services/embeddedPostgres';
import { isListening } from '../services/freePort';
import { databaseUrlOf } from '../services/runtime';

const BootstrapArgs = z.object({
  org: z.string().trim().min(1, '--org is required'),
  email: z.email('--email must be an email address').transform((email) => email.toLowerCase()),
  password: z.string().min(8, '--password must be at least 8 characters'),
});

async function withDatabase<T>(work: (db: Db) => Promise<T>): Promise<T> {
  const config = loadConfig();
  let stopEmbedded: (() => Promise<void>) | undefined;
  if (!config.DATABASE_URL && !(await isListening(config.EMBEDDED_PG_PORT))) {
    const pg = await startEmbeddedPostgres({
      dataDir: path.resolve(config.DATA_DIR, 'postgres'), port: config.EMBEDDED_PG_PORT, persistent: true, log: (line) => process.stderr.write(`${line}\n`),
    });
    stopEmbedded = pg.stop;
  }
  const db = createDb(databaseUrlOf(config), { poolMax: 2, applicationName: 'operator-platform-cli' });
  try {
    await migrateLatest(db);
    return await work(db);
  } finally {
    await db.destroy();
    await stopEmbedded?.();
  }
}

async function bootstrap(argv: string[]): Promise<void> {
  const { values } = parseArgs({ args: argv, options: { org: { type: 'string' }, email: { type: 'string' }, password: { type: 'string' } } });
  const parsed = BootstrapArgs.safeParse(values);
  if (!parsed.success) throw new Error(parsed.error.issues.map((issue) => issue.message).join('; '));
  const result = await withDatabase(async (db) => {
    const { operator, user, member } = await createOrganisation(db, {
      organisationName: parsed.data.org,
      email: parsed.data.email,
      passwordHash: await hashPassword(parsed.data.password),
      displayName: parsed.data.email.split('@')[0] ?? parsed.data.email,
    });
    const apiKey = generateApiKey();
    await insertApiKey(db, { operatorId: operator.id, keyHash: sha256Hex(apiKey), label: 'bootstrap', createdByMemberId: member.id });
    return { operatorId: operator.id, userId: user.id, apiKey };
  });
  process.stdout.write(`${JSON.stringify(result)}\n`);
}

async function main(): Promise<void> {
  const [command, ...rest] = process.argv.slice(2);
  switch (command) {
    case 'bootstrap':
      return bootstrap(rest);
    case 'migrate':
      await withDatabase(async () => undefined);
      process.stdout.write('migrations applied\n');
      return;
    default:
      throw new Error('usage: npm run cli -- bootstrap --org NAME --email E --password P | migrate');
  }
}

main().catch((error) => {
  process.stderr.write(`${(error as Error).message}\n`);
  process.exit(1);
});
