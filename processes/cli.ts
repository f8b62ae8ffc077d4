/**
 * Operator CLI: `npm run cli -- <command>`.
 *   bootstrap --org NAME --email E --password P   creates an organisation, its Owner and an API key;
 *                                                  prints one JSON line { operatorId, userId, apiKey }
 *   quota --operator ID [--actions N|default] [--ai-actions M|default]
 *                                                  sets (or with `default` clears) the operator's monthly
 *                                                  Action / AI Action limits; prints one JSON line with
 *                                                  this month's usage, limits and overrides
 *   migrate                                        applies pending migrations
 * Uses DATABASE_URL, else the embedded PostgreSQL (started for the command if `npm start` isn't running).
 */
import path from 'node:path';
import { parseArgs } from 'node:util';
import { z } from 'zod';
import { createApiKey } from '../commands/apiKeys/create';
import { signup } from '../commands/signup';
import { loadConfig } from '../core/config';
import { createDb, type Db } from '../db/knex';
import { migrateLatest } from '../db/migrate';
import { findOperator } from '../db/queries/identity';
import { quotaLimits, setQuotaOverride, usageMonthOf, usageOf } from '../db/queries/automationUsage';
import { startEmbeddedPostgres } from '../devstack/embeddedPostgres';
import { isListening } from '../devstack/freePort';
import { databaseUrlOf } from './addresses';

const BootstrapArgs = z.object({
  org: z.string().trim().min(1, '--org is required'),
  email: z.email('--email must be an email address').transform((email) => email.toLowerCase()),
  password: z.string().min(8, '--password must be at least 8 characters'),
});

/** A monthly limit flag: a whole number, or `default` to drop the override and use the configured default. */
const limitFlag = (flag: string) =>
  z
    .string()
    .regex(/^(default|\d{1,9})$/, `${flag} must be a whole number ≥ 0 or "default"`)
    .transform((value) => (value === 'default' ? null : Number(value)))
    .optional();
const QuotaArgs = z.object({
  operator: z.uuid('--operator must be an operator id (a UUID)'),
  actions: limitFlag('--actions'),
  'ai-actions': limitFlag('--ai-actions'),
});

async function withDatabase<T>(work: (db: Db) => Promise<T>): Promise<T> {
  const config = loadConfig();
  let stopEmbedded: (() => Promise<void>) | undefined;
  if (!config.DATABASE_URL && !(await isListening(config.EMBEDDED_PG_PORT))) {
    const pg = await startEmbeddedPostgres({
      dataDir: path.resolve(config.DATA_DIR, 'postgres'),
      port: config.EMBEDDED_PG_PORT,
      persistent: true,
      log: (line) => process.stderr.write(`${line}\n`),
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
    const { operator, user, member } = await signup({ db }, { organisationName: parsed.data.org, email: parsed.data.email, password: parsed.data.password });
    const { key } = await createApiKey({ db }, { operatorId: operator.id, label: 'bootstrap', createdByMemberId: member.id, actor: `member:${member.id}` });
    return { operatorId: operator.id, userId: user.id, apiKey: key };
  });
  process.stdout.write(`${JSON.stringify(result)}\n`);
}

/**
 * `quota`: per-operator overrides of QUOTA_ACTIONS_PER_MONTH / QUOTA_AI_ACTIONS_PER_MONTH. A flag left out
 * keeps that limit as it is, so `--ai-actions 0` alone does not touch the Actions limit; without flags it
 * only reports. Takes effect on the next run: the limits are read when a run reserves its Actions.
 *
 * @example npm run cli -- quota --operator 7f0c… --actions 50000 --ai-actions default
 * // {"operatorId":"7f0c…","month":"2026-11","actions":{"used":12,"limit":50000,"remaining":49988,"override":50000},"aiActions":{…,"override":null}}
 */
async function quota(argv: string[]): Promise<void> {
  const { values } = parseArgs({ args: argv, options: { operator: { type: 'string' }, actions: { type: 'string' }, 'ai-actions': { type: 'string' } } });
  const parsed = QuotaArgs.safeParse(values);
  if (!parsed.success) throw new Error(parsed.error.issues.map((issue) => issue.message).join('; '));
  const { operator: operatorId, actions, 'ai-actions': aiActions } = parsed.data;
  const config = loadConfig();
  const defaults = { actions: config.QUOTA_ACTIONS_PER_MONTH, aiActions: config.QUOTA_AI_ACTIONS_PER_MONTH };
  const result = await withDatabase(async (db) => {
    if (!(await findOperator(db, operatorId))) throw new Error(`operator ${operatorId} not found`);
    // With negative defaults, quotaLimits tells which limits are stored overrides.
    const stored = await quotaLimits(db, operatorId, { actions: -1, aiActions: -1 });
    const current = { actions: stored.actions < 0 ? null : stored.actions, aiActions: stored.aiActions < 0 ? null : stored.aiActions };
    const next = { actions: actions === undefined ? current.actions : actions, aiActions: aiActions === undefined ? current.aiActions : aiActions };
    if (actions !== undefined || aiActions !== undefined) await setQuotaOverride(db, operatorId, next);
    const month = usageMonthOf(new Date());
    const used = await usageOf(db, operatorId, month);
    const counter = (usedCount: number, override: number | null, fallback: number) => {
      const limit = override ?? fallback;
      return { used: usedCount, limit, remaining: Math.max(0, limit - usedCount), override };
    };
    return {
      operatorId,
      month,
      actions: counter(used.actions, next.actions, defaults.actions),
      aiActions: counter(used.aiActions, next.aiActions, defaults.aiActions),
    };
  });
  process.stdout.write(`${JSON.stringify(result)}\n`);
}

async function main(): Promise<void> {
  const [command, ...rest] = process.argv.slice(2);
  switch (command) {
    case 'bootstrap':
      return bootstrap(rest);
    case 'quota':
      return quota(rest);
    case 'migrate':
      await withDatabase(async () => undefined);
      process.stdout.write('migrations applied\n');
      return;
    default:
      throw new Error(
        'usage: npm run cli -- bootstrap --org NAME --email E --password P | quota --operator ID [--actions N|default] [--ai-actions M|default] | migrate',
      );
  }
}

main().catch((error) => {
  process.stderr.write(`${(error as Error).message}\n`);
  process.exit(1);
});
