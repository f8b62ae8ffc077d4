/**
 * `npm run conformance`: the official MCP conformance suite (@modelcontextprotocol/conformance, pinned in
 * tools/scripts/conformance/install.ts) against `/mcp-server` of a throw-away loopback stack. Installs Node 22 and the suite
 * into ~/.cache/operator-platform once, starts PostgreSQL, Temporal, a worker and the API, signs up an operator with an
 * MCP-enabled key, creates the automations behind the scenarios' tools (tools/scripts/conformance/fixtures.ts), puts a
 * loopback proxy that adds the key in front of the API (the suite sends no auth header), then runs every server
 * scenario of the 2025-06-18, 2025-11-25 and 2026-07-28 revisions and each extension scenario, then the authorization-server
 * scenarios against the platform's OAuth issuer (tools/scripts/conformance/authorization.ts), each run against
 * tools/scripts/conformance/expected-failures.yaml (the scenarios and checks that do not apply, with their reasons).
 * Exits non-zero on any unexpected failure or any baselined one that now passes. docs/mcp.md#conformance.
 *
 * Options: `--spec-version <2025-06-18|2025-11-25|2026-07-28|extension|authorization>` (repeatable) runs only those runs,
 * `--scenario <name>` only that scenario in each of them, `--verbose` the suite's JSON output.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { parse as parseYaml } from 'yaml';
import { freePort } from '../../devstack/freePort';
import { startThrowawayServices } from '../stack/throwawayServices';
import { LOAD_RATE_LIMITS } from '../stack/loadRateLimits';
import { startStack } from '../../processes/stack';
import { post } from '../stack/stackClient';
import { runAuthorizationSuite } from './conformance/authorization';
import { automationOf, CALL_WAIT_MS, FIXTURES } from './conformance/fixtures';
import { CONFORMANCE_VERSION, ensureConformanceTools, run, type ConformanceTools } from './conformance/install';
import { startAuthProxy } from './conformance/proxy';

const EXPECTED_FAILURES = path.join(__dirname, 'conformance', 'expected-failures.yaml');
const REPORT_DIR = path.resolve('.data', 'conformance-report');
const REVISIONS = ['2025-06-18', '2025-11-25', '2026-07-28'];
/** Every run the script knows: the server scenarios per revision, the extensions, and the authorization-server ones. */
const RUNS = [...REVISIONS, 'extension', 'authorization'];
/** One suite invocation may not take longer than this (all of them together take about a minute on the 2-core machine). */
const RUN_TIMEOUT_MS = 15 * 60_000;
/** Per scenario: the task scenarios wait on several 3 s runs in a row. */
const SCENARIO_TIMEOUT_MS = 120_000;

const say = (line: string) => process.stdout.write(`${line}\n`);

interface Options {
  runs: string[];
  scenario?: string;
  verbose: boolean;
}

function parseArgs(argv: string[]): Options {
  const options: Options = { runs: [], verbose: false };
  for (let index = 0; index < argv.length; index++) {
    const arg = argv[index];
    const value = () => {
      const next = argv[++index];
      if (next === undefined) throw new Error(`${arg} needs a value`);
      return next;
    };
    if (arg === '--spec-version') {
      const run = value();
      if (!RUNS.includes(run)) throw new Error(`--spec-version must be one of ${RUNS.join(', ')}`);
      options.runs.push(run);
    } else if (arg === '--scenario') options.scenario = value();
    else if (arg === '--verbose') options.verbose = true;
    else throw new Error(`unknown option ${arg} (options: --spec-version <revision|extension|authorization>, --scenario <name>, --verbose)`);
  }
  if (options.runs.length === 0) options.runs = [...RUNS];
  return options;
}

/** One invocation of the suite: a label, its arguments beyond --url and the baseline. */
interface SuiteRun {
  label: string;
  args: string[];
}

/** The extension scenarios (tasks, skills), from the suite's own list: `--spec-version` never selects them. */
function extensionScenarios(tools: ConformanceTools): string[] {
  const listing = execFileSync(tools.node, [tools.cli, 'list', '--server'], { encoding: 'utf8' });
  return [...listing.matchAll(/^\s*- (\S+) \[extension\]$/gm)].map((match) => match[1]!);
}

function suiteRuns(tools: ConformanceTools, options: Options): SuiteRun[] {
  const runs: SuiteRun[] = [];
  for (const revision of REVISIONS.filter((name) => options.runs.includes(name))) {
    const selection = options.scenario ? ['--scenario', options.scenario] : ['--suite', 'all'];
    runs.push({ label: revision, args: [...selection, '--spec-version', revision] });
  }
  if (options.runs.includes('extension')) {
    for (const scenario of extensionScenarios(tools).filter((name) => !options.scenario || name === options.scenario)) {
      runs.push({ label: `extension ${scenario}`, args: ['--scenario', scenario] });
    }
  }
  return runs;
}

interface ScenarioResult {
  run: string;
  scenario: string;
  passed: string[];
  failed: string[];
  warnings: string[];
}

/** The checks each scenario of a run wrote (`<dir>/server-<scenario>-<timestamp>/checks.json`). */
function readResults(run: string, dir: string): ScenarioResult[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((entry) => existsSync(path.join(dir, entry, 'checks.json')))
    .map((entry) => {
      const checks = JSON.parse(readFileSync(path.join(dir, entry, 'checks.json'), 'utf8')) as Array<{ id: string; status: string }>;
      return {
        run,
        scenario: entry.replace(/^(authorization-server|server)-/, '').replace(/-\d{4}-\d{2}-\d{2}T[\d-]+Z$/, ''),
        passed: checks.filter((check) => check.status === 'SUCCESS').map((check) => check.id),
        failed: checks.filter((check) => check.status === 'FAILURE').map((check) => check.id),
        warnings: checks.filter((check) => check.status === 'WARNING').map((check) => check.id),
      };
    });
}

/** The expected-failures file: whole scenarios, and single checks as `scenario:check-id`. */
function readBaseline(file: string): { scenarios: Set<string>; checks: Set<string> } {
  const entries = (parseYaml(readFileSync(file, 'utf8')) as { server?: string[] } | null)?.server ?? [];
  return { scenarios: new Set(entries.filter((entry) => !entry.includes(':'))), checks: new Set(entries.filter((entry) => entry.includes(':'))) };
}

interface Verdict {
  scenario: string;
  run: string;
  kind: 'pass' | 'expected' | 'unexpected' | 'stale';
}

/**
 * Each scenario's outcome per run, as a table — ✓ every check passed (or was skipped), ~ it failed only where the
 * expected-failures file says it does, ✗ anything else — and the verdicts.
 */
function summarize(results: ScenarioResult[], baseline: { scenarios: Set<string>; checks: Set<string> }): Verdict[] {
  const columns = RUNS;
  const verdicts = results.map((result): Verdict => {
    const problems = [...result.failed, ...result.warnings];
    const listed = (id: string) => baseline.checks.has(`${result.scenario}:${id}`);
    const excused = baseline.scenarios.has(result.scenario) || problems.every(listed);
    const stale = problems.length === 0 ? baseline.scenarios.has(result.scenario) : result.passed.some(listed);
    const kind = stale ? 'stale' : problems.length === 0 ? 'pass' : excused ? 'expected' : 'unexpected';
    return { scenario: result.scenario, run: result.run.split(' ')[0]!, kind };
  });
  const mark = { pass: '✓', expected: '~', unexpected: '✗', stale: '!' };
  say(`\n##### conformance summary: ✓ passes, ~ fails only as expected (tools/scripts/conformance/expected-failures.yaml), ✗ unexpected, ! listed but passes`);
  say(`${'scenario'.padEnd(48)}${columns.map((column) => column.padEnd(12)).join('')}`);
  for (const scenario of [...new Set(verdicts.map((verdict) => verdict.scenario))]) {
    const cells = columns.map((column) => {
      const verdict = verdicts.find((candidate) => candidate.scenario === scenario && candidate.run === column);
      return (verdict ? mark[verdict.kind] : '-').padEnd(12);
    });
    say(`${scenario.padEnd(48)}${cells.join('')}`);
  }
  return verdicts;
}

/** The conformance operator: its MCP-enabled key (for the auth proxy) and its Owner's session (to approve OAuth). */
async function setUpOperator(url: string): Promise<{ key: string; session: string }> {
  const email = `conformance-${Date.now()}@example.test`;
  const signup = await post(url, '/auth/v1/signup', { email, password: 'conformance-password', organisationName: 'Conformance' });
  const operatorId = signup.data.operator.id as string;
  const session = signup.data.session.access_token as string;
  const key = await post(url, '/api-keys', { operatorId, label: 'conformance' }, session);
  await post(url, `/api-keys/${key.data.id}/mcp`, { mcp_enabled: true, mcp_workflow_allowlist: null }, session, 'PATCH');
  for (const fixture of FIXTURES) {
    const created = await post(url, '/workflows-api/workflows', automationOf(fixture), session);
    if (created.data.mcp_tool_name !== fixture.tool)
      throw new Error(`automation "${fixture.name}" became tool ${created.data.mcp_tool_name}, not ${fixture.tool}`);
  }
  return { key: key.data.key as string, session };
}

async function main(): Promise<number> {
  const options = parseArgs(process.argv.slice(2));
  const tools = await ensureConformanceTools(say);
  const runs = suiteRuns(tools, options);
  if (runs.length === 0 && !options.runs.includes('authorization'))
    throw new Error(`no scenario selected${options.scenario ? ` (is ${options.scenario} a server scenario?)` : ''}`);

  const proxy = await startAuthProxy();
  // The issuer is APP_URL: the API's own origin, known before it starts.
  const apiPort = await freePort();
  const issuer = `http://127.0.0.1:${apiPort}`;
  say('starting PostgreSQL, Temporal, the worker and the API on loopback…');
  const stack = await startStack({
    services: (config, log) => startThrowawayServices(config, log, { prefix: 'conformance' }),
    env: {
      PORT: String(apiPort),
      APP_URL: issuer,
      HOST: '127.0.0.1',
      LOG_LEVEL: 'error',
      TEMPORAL_TASK_QUEUE: 'conformance',
      ...LOAD_RATE_LIMITS,
      RATE_LIMIT_MCP: '1000000',
      MCP_CALL_WAIT_MS: String(CALL_WAIT_MS),
      GATEWAY_ALLOW_PRIVATE_NETWORKS: 'false',
      // The suite's DNS-rebinding scenario: a browser Origin other than the one the server is reached at is refused.
      ALLOWED_ORIGINS: `http://127.0.0.1:${proxy.port},http://localhost:${proxy.port}`,
    },
    log: say,
  });
  const results: ScenarioResult[] = [];
  const failedRuns: string[] = [];
  try {
    const operator = await setUpOperator(stack.api.url);
    proxy.target(stack.api.url, operator.key);
    rmSync(REPORT_DIR, { recursive: true, force: true });
    const url = `${proxy.url}/mcp-server`;
    if (runs.length > 0)
      say(`@modelcontextprotocol/conformance@${CONFORMANCE_VERSION}: ${runs.length} runs against ${url} (through the auth proxy; node ${tools.node})`);
    for (const suite of runs) {
      const dir = path.join(REPORT_DIR, suite.label.replace(/\s+/g, '-'));
      say(`\n##### ${suite.label}`);
      const args = [tools.cli, 'server', '--url', url, ...suite.args, '--expected-failures', EXPECTED_FAILURES, '-o', dir];
      const code = await run(tools.node, [...args, '--timeout', String(SCENARIO_TIMEOUT_MS), ...(options.verbose ? ['--verbose'] : [])], {
        timeoutMs: RUN_TIMEOUT_MS,
      });
      results.push(...readResults(suite.label, dir));
      if (code !== 0) failedRuns.push(`${suite.label} (exit code ${code})`);
    }
    if (options.runs.includes('authorization') && (!options.scenario || options.scenario.startsWith('authorization'))) {
      const dir = path.join(REPORT_DIR, 'authorization');
      say(`\n##### authorization (the OAuth 2.1 authorization server at ${issuer})`);
      const code = await runAuthorizationSuite(tools, { issuer, sessionToken: operator.session, dir, timeoutMs: RUN_TIMEOUT_MS, say });
      results.push(...readResults('authorization', dir));
      if (code !== 0) failedRuns.push(`authorization (exit code ${code})`);
    }
  } finally {
    await proxy.close();
    await stack.close();
  }

  const verdicts = summarize(results, readBaseline(EXPECTED_FAILURES));
  const unexpected = verdicts.filter((verdict) => verdict.kind === 'unexpected').length;
  const expected = verdicts.filter((verdict) => verdict.kind === 'expected').length;
  const stale = verdicts.filter((verdict) => verdict.kind === 'stale').length;
  const passing = verdicts.length - unexpected - expected - stale;
  say(
    `\nconformance: ${passing} scenario runs pass, ${expected} fail only where expected, ${unexpected} fail unexpectedly, ${stale} pass where a failure is expected; report in ${REPORT_DIR}`,
  );
  if (failedRuns.length > 0) {
    say(`conformance: unexpected failures (or stale expected failures) in ${failedRuns.join(', ')}: see each run's "Baseline check" above`);
    return 1;
  }
  say('conformance: every failure is an expected one (tools/scripts/conformance/expected-failures.yaml)');
  return 0;
}

main()
  .then((code) => process.exit(code))
  .catch((error: unknown) => {
    process.stderr.write(`conformance: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exit(2);
  });
