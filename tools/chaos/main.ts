/**
 * `npm run chaos [-- --short] [-- --only 1,3]`: fault runs on a throw-away loopback stack whose API and worker
 * are separate processes (tools/stack/processStack.ts). Each scenario drives real traffic, injects its fault and
 * checks the outcome in PostgreSQL; one line per scenario, then `N passed, M failed`; exit 1 on any failure.
 * docs/chaos.md says what each scenario does and what its counts mean.
 */
import { copyFileSync, mkdirSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { startProcessStack } from '../stack/processStack';
import { parseConfig } from '../../core/config';
import { createDb } from '../../db/knex';
import { apiFailover } from './apiFailover';
import { apiKills } from './apiKills';
import { automationKill } from './automationKill';
import { dispatchFlood } from './dispatchFlood';
import { formatResult, type ChaosContext, type Scenario, type ScenarioResult } from './lib';
import { mcpTaskRestart } from './mcpTaskRestart';
import { noisyTenant } from './noisyTenant';
import { postgresRestart } from './postgresRestart';
import { temporalRestart } from './temporalRestart';
import { workerFailover } from './workerFailover';
import { workerKills } from './workerKills';

/**
 * In the order they run. Scenario 7 goes first: its 10-minute delay then passes while every other scenario runs
 * (about 8 minutes of them), instead of beside 8–10 alone.
 */
const SCENARIOS: Array<[number, string, Scenario]> = [
  [7, 'MCP task across an API restart', mcpTaskRestart],
  [1, 'worker SIGKILL mid-batch', workerKills],
  [2, 'API SIGKILL during ingest', apiKills],
  [3, 'PostgreSQL restart', postgresRestart],
  [4, 'Temporal restart', temporalRestart],
  [5, 'worker SIGKILL in a run', automationKill],
  [6, 'noisy tenant', noisyTenant],
  [8, 'one of two APIs SIGKILLed', apiFailover],
  [9, 'one of two workers SIGKILLed', workerFailover],
  [10, 'tenant flood past its share', dispatchFlood],
];

function report(results: ScenarioResult[], index: number, outcome: ScenarioResult, at: string): void {
  results.push(outcome);
  process.stdout.write(`${formatResult(index, outcome)}  [${at}]\n`);
  for (const failure of outcome.failures.slice(3, 13)) process.stdout.write(`     ${failure}\n`);
}

/** Copies the API and worker logs out of the throw-away directory before it goes. */
function keepLogs(dataDir: string): string {
  const target = path.resolve('.data', 'chaos', new Date().toISOString().replace(/[:.]/g, '-'));
  mkdirSync(target, { recursive: true });
  for (const file of readdirSync(dataDir).filter((name) => name.endsWith('.log'))) copyFileSync(path.join(dataDir, file), path.join(target, file));
  return target;
}

function flags(argv: string[]): { short: boolean; only: number[] | null; verbose: boolean } {
  const onlyIndex = argv.indexOf('--only');
  return {
    short: argv.includes('--short'),
    verbose: argv.includes('--verbose'),
    only: onlyIndex >= 0 ? (argv[onlyIndex + 1] ?? '').split(',').map(Number) : null,
  };
}

async function main(): Promise<number> {
  const options = flags(process.argv.slice(2));
  const started = Date.now();
  const elapsed = () => `${((Date.now() - started) / 1000).toFixed(0)}s`;
  const log = (line: string) => {
    if (options.verbose) process.stderr.write(`[${elapsed()}] ${line}\n`);
  };
  process.stdout.write(`chaos${options.short ? ' --short' : ''}: starting PostgreSQL, Temporal, one API and one worker process…\n`);
  // The body byte budget as shipped (the load limits lift it): scenario 6's hostile tenant floods against it.
  const bytes = parseConfig({});
  const stack = await startProcessStack(
    {
      GATEWAY_ALLOW_PRIVATE_NETWORKS: 'true',
      BATCH_CHUNK_SIZE: '500',
      RATE_LIMIT_MCP: '1000000',
      BODY_BYTES_PER_SECOND: String(bytes.BODY_BYTES_PER_SECOND),
      BODY_BYTES_BURST: String(bytes.BODY_BYTES_BURST),
    },
    log,
  );
  const db = createDb(stack.databaseUrl, { poolMax: 4, applicationName: 'chaos-checks' });
  const results: ScenarioResult[] = [];
  const later: Array<[number, Promise<ScenarioResult>]> = [];
  try {
    const [api, worker] = await Promise.all([stack.spawnApi(), stack.spawnWorker()]);
    const context: ChaosContext = { stack, api, worker, db, short: options.short, log };
    for (const [index, name, scenario] of SCENARIOS) {
      if (options.only && !options.only.includes(index)) continue;
      log(`scenario ${index}: ${name}`);
      const outcome: ScenarioResult = await scenario(context).catch((error: Error) => ({
        name,
        sent: 0,
        stored: 0,
        lost: 0,
        duplicated: 0,
        fiveXx: 0,
        recoveryMs: null,
        failures: [`crashed: ${error.message}`],
      }));
      if (outcome.later) {
        later.push([index, outcome.later]);
        process.stdout.write(`${index}. ${outcome.name}: ${outcome.extra ?? ''}  [${elapsed()}]\n`);
        continue;
      }
      report(results, index, outcome, elapsed());
    }
    for (const [index, pending] of later) report(results, index, await pending, elapsed());
  } finally {
    await db.destroy();
    if (results.some((outcome) => outcome.failures.length > 0)) process.stdout.write(`API and worker logs: ${keepLogs(stack.dataDir)}\n`);
    await stack.stop();
  }
  const failed = results.filter((outcome) => outcome.failures.length > 0).length;
  process.stdout.write(`${results.length - failed} passed, ${failed} failed\n`);
  return failed === 0 ? 0 : 1;
}

main().then(
  (code) => process.exit(code),
  (error) => {
    process.stderr.write(`chaos failed: ${(error as Error).stack}\n`);
    process.exit(1);
  },
);
