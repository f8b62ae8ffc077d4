import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startThrowawayServices } from '../stack/throwawayServices';
import { LOAD_RATE_LIMITS } from '../stack/loadRateLimits';
import { startStack } from '../../processes/stack';
import type { FuzzOptions } from './options';
import { tallyReport } from './report';
import { ensureSchemathesis, run } from './schemathesis';
import { seedFuzzData, type FuzzIdentity } from './seed';

/** The contract checks; docs/openapi-and-fuzzing.md says why each other Schemathesis check is left out. */
export const CHECKS = [
  'not_a_server_error',
  'status_code_conformance',
  'content_type_conformance',
  'response_schema_conformance',
  'response_headers_conformance',
];

/** Rate limits high enough that the fuzzer exercises handlers rather than 429s (429 stays documented). */
const FUZZ_ENV = {
  ...LOAD_RATE_LIMITS,
  RATE_LIMIT_ANALYTICS_READ: '1000000',
  RATE_LIMIT_ANALYTICS_EXPORT: '1000000',
  RATE_LIMIT_ANALYTICS_REFRESH: '1000000',
  RATE_LIMIT_MCP: '1000000',
  RATE_LIMIT_INVITES_PER_OPERATOR: '1000000',
  RATE_LIMIT_INVITES_PER_MEMBER: '1000000',
  RATE_LIMIT_INVITES_PUBLIC: '1000000',
  GATEWAY_TIMEOUT_MS: '2000',
  GATEWAY_MAX_ATTEMPTS: '1',
};

function operationCount(document: Document): number {
  const methods = new Set(['get', 'put', 'post', 'delete', 'patch', 'options', 'head', 'trace']);
  return Object.values(document.paths ?? {}).reduce((sum, item) => sum + Object.keys(item).filter((key) => methods.has(key)).length, 0);
}

type Document = { paths?: Record<string, Record<string, { security?: Array<Record<string, unknown>> }>> };

/**
 * One `[[operations]]` block per documented operation with the credential it should carry, read from
 * its `security`: an API key where one is accepted, else the member session. Key management runs with
 * a second operator's session so revoking keys cannot lock the fuzzer's own key out, and logout a third's, so a
 * global logout cannot end the session the other operations use. Headers rather than
 * `[auth.openapi.*]`: Schemathesis drops the scheme's header on operations that declare header parameters.
 */
export function configToml(document: Document, credentials: FuzzIdentity): string {
  const blocks: string[] = [];
  for (const [path, item] of Object.entries(document.paths ?? {})) {
    for (const [method, operation] of Object.entries(item)) {
      const schemes = new Set((operation.security ?? []).flatMap((requirement) => Object.keys(requirement)));
      const token = path.startsWith('/api-keys')
        ? credentials.keysSession
        : path === '/auth/v1/logout'
          ? credentials.logoutSession
          : schemes.has('apiKey')
            ? credentials.apiKey
            : schemes.has('session')
              ? credentials.session
              : undefined;
      if (!token) continue;
      blocks.push(
        '[[operations]]',
        `include-name = ${JSON.stringify(`${method.toUpperCase()} ${path}`)}`,
        `headers = { Authorization = "Bearer ${token}" }`,
        '',
      );
    }
  }
  return blocks.join('\n');
}

/**
 * Starts the stack, seeds fresh operators (tools/fuzz/seed.ts), runs Schemathesis against the served
 * /openapi.json, prints the answers per operation and the number of cases, and returns the exit code:
 * 0 only with no finding and at least `options.cases` cases run.
 *
 * @example process.exit(await runFuzz({ cases: 2000, maxTimeSeconds: 900, workers: 2 }, console.log))
 */
export async function runFuzz(options: FuzzOptions, say: (line: string) => void): Promise<number> {
  const cli = await ensureSchemathesis(say);
  say('starting PostgreSQL, Temporal, the worker and the API on loopback…');
  const stack = await startStack({
    services: (config, log) => startThrowawayServices(config, log, { prefix: 'fuzz' }),
    env: { PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'error', TEMPORAL_TASK_QUEUE: 'fuzz', ...FUZZ_ENV },
    log: say,
  });
  const { url } = stack.api;
  const workDir = mkdtempSync(path.join(os.tmpdir(), 'operator-platform-fuzz-'));
  try {
    const identity = await seedFuzzData(url);
    const document = (await (await fetch(`${url}/openapi.json`)).json()) as Document;
    const operations = operationCount(document);
    const perOperation = Math.max(1, Math.ceil(options.cases / Math.max(1, operations)));
    const configFile = path.join(workDir, 'schemathesis.toml');
    writeFileSync(configFile, configToml(document, identity), { mode: 0o600 });
    const reportDir = path.resolve('.data', 'fuzz-report');
    rmSync(reportDir, { recursive: true, force: true });
    say(`fuzzing ${operations} operations of ${url}/openapi.json: up to ${perOperation} generated cases each, at most ${options.maxTimeSeconds} s`);
    const code = await run(
      cli,
      [
        '--config-file',
        configFile,
        'run',
        `${url}/openapi.json`,
        '--checks',
        CHECKS.join(','),
        '--max-examples',
        String(perOperation),
        '--max-time',
        String(options.maxTimeSeconds),
        '--workers',
        String(options.workers),
        '--request-timeout',
        '15',
        '--phases',
        'examples,coverage,fuzzing,stateful',
        '--report',
        'ndjson',
        '--report-dir',
        reportDir,
        '--no-color',
        '--suppress-health-check',
        'all',
        ...(options.seed !== undefined ? ['--seed', String(options.seed)] : []),
      ],
      { cwd: workDir },
    );
    const tally = await tallyReport(reportDir);
    for (const [label, statuses] of Object.entries(tally.statuses).sort())
      say(
        `  ${label}: ${Object.entries(statuses)
          .map(([status, n]) => `${status}×${n}`)
          .join(' ')}`,
      );
    say(`fuzz: ${tally.cases} cases run over ${operations} operations (report: ${reportDir}); schemathesis exit code ${code}`);
    if (code !== 0) return code;
    if (tally.cases < options.cases) {
      say(`fuzz: fewer cases than asked for (${tally.cases} < ${options.cases}): raise --max-time`);
      return 1;
    }
    return 0;
  } finally {
    rmSync(workDir, { recursive: true, force: true });
    await stack.close();
  }
}
