import { spawn } from 'node:child_process';
import path from 'node:path';
import { request, sleep, type Answer } from './lib';
import type { Tenant } from './noisyFixtures';

/** 100,000 levels of nesting: parsed, it would take the API's stack; its text is refused first (core/jsonBounds.ts). */
const DEEP_JSON = `${'['.repeat(100_000)}${']'.repeat(100_000)}`;
/** Doubles 16 characters twenty times: a 16 MB value from a 100-character template. */
const AMPLIFYING = `{{ ($s := "xxxxxxxxxxxxxxxx"; ${Array.from({ length: 20 }, () => '$s := $s & $s;').join(' ')} $s) }}`;
/** The issue's backtest condition, with enough `a`s that every evaluation passes the CPU budget. */
const COSTLY = `$count($match("${'a'.repeat(24)}!", $eval('/(a+)+b/'))) = 0`;

export interface HostileCounts {
  floodAccepted: number;
  floodRefused: number;
  deepRefused: number;
  templatesRefused: number;
  backtest: string;
}

interface FloodReport {
  byStatus: Record<string, number>;
  retryAfter: string[];
  other: unknown[];
}

/**
 * tools/chaos/byteFlood.ts with two clients, in a process of its own at the lowest priority: on one machine the flooding
 * client's CPU stands for the attacker's own machine, and in this process it would slow the quiet tenant's client.
 */
function startFlood(url: string, key: string) {
  const child = spawn('nice', ['-n', '19', process.execPath, '--import', 'tsx', 'tools/chaos/byteFlood.ts', url, key, '3600', '2'], {
    cwd: path.resolve(__dirname, '../..'),
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
  const report = new Promise<FloodReport | null>((resolve) => child.once('exit', () => resolve(output ? (JSON.parse(output) as FloodReport) : null)));
  return {
    stop: () => {
      child.stdin!.write('stop\n');
      return report;
    },
  };
}

const costlyDefinition = (expression: string) => ({
  nodes: [
    { id: 'deposit', type: 'trigger.event', params: { event: 'entity_event.transaction' } },
    { id: 'check', type: 'condition', params: { expression } },
    { id: 'mark', type: 'action.set_state', params: { externalId: 'p-1', key: 'risk_score', value: 1 } },
  ],
  edges: [
    { from: 'deposit', to: 'check' },
    { from: 'check', to: 'mark', when: true },
  ],
});

/**
 * The hostile half of the noisy tenant (issue 41), until `stop`: a costly backtest over its own deposits (started
 * first, before its bytes run out), two loops of ~10 MB event POSTs (tools/chaos/byteFlood.ts), and a loop of 100,000-deep JSON bodies and 16 MB
 * template previews. `stop` ends the loops, waits for the backtest to end (cancelling it after 60 s) and says what
 * the platform answered that it should not have: a flood never refused (or refused without `Retry-After`), a deep body
 * or template not refused with its 4xx/error code, a backtest not ended `BACKTEST_CONDITION_TIMEOUT`, any 5xx.
 */
export async function startHostile(url: string, hostile: Tenant) {
  const problems: string[] = [];
  const counts: HostileCounts = { floodAccepted: 0, floodRefused: 0, deepRefused: 0, templatesRefused: 0, backtest: 'not started' };
  const from = new Date(Date.now() - 3_600_000).toISOString();
  for (let i = 0; i < 50; i += 1) {
    const body = { eventType: 'transaction', data: { type: 'deposit', amount: i + 1, currency: 'EUR' } };
    await request(url, '/operator-data-api/entities/p-1/events', { key: hostile.key, body });
  }
  const workflow = await request(url, '/workflows-api/workflows', {
    key: hostile.key,
    body: { name: 'Costly backtest', ...costlyDefinition('trigger.data.amount > 0') },
  });
  const backtest = await request(url, `/workflows-api/workflows/${workflow.body?.data?.id}/backtests`, {
    key: hostile.key,
    body: { from, to: new Date(Date.now() + 60_000).toISOString(), definition: costlyDefinition(COSTLY) },
  });
  const backtestId = backtest.body?.data?.id as string | undefined;
  if (backtest.status !== 202 || !backtestId) problems.push(`costly backtest not started: HTTP ${backtest.status} ${backtest.text.slice(0, 160)}`);
  else counts.backtest = 'running';

  let stopping = false;
  const flood = startFlood(url, hostile.key);
  const oddities = async () => {
    while (!stopping) {
      const pace = sleep(1_000);
      const nested = await fetch(`${url}/operator-data-api/entities/p-1/events`, {
        method: 'POST',
        headers: { authorization: `Bearer ${hostile.key}`, 'content-type': 'application/json' },
        body: DEEP_JSON,
      }).then(async (response) => ({ status: response.status, text: await response.text() }));
      // The byte budget may answer first (429): the point is that nothing parses the body or answers 5xx.
      if (nested.status === 400) counts.deepRefused += 1;
      else if (nested.status !== 429) problems.push(`100,000-deep JSON answered ${nested.status} ${nested.text.slice(0, 160)}`);
      const preview = await request(url, '/workflows-api/expressions/preview', { key: hostile.key, body: { kind: 'template', expression: AMPLIFYING } });
      const code = preview.body?.data?.code;
      if (preview.status === 200 && ['EXPRESSION_OUTPUT_TOO_LARGE', 'EXPRESSION_BUDGET_EXCEEDED'].includes(code)) counts.templatesRefused += 1;
      else if (preview.status !== 429) problems.push(`a 16 MB template preview answered ${preview.status} ${preview.text.slice(0, 160)}`);
      await pace;
    }
  };
  const running = oddities();

  return {
    counts,
    problems,
    stop: async (): Promise<void> => {
      stopping = true;
      await running;
      const report = await flood.stop();
      counts.floodAccepted = report?.byStatus['201'] ?? 0;
      counts.floodRefused = report?.byStatus['429'] ?? 0;
      if (!report) problems.push('the byte flood reported nothing');
      else if (report.other.length > 0) problems.push(`10 MB POSTs answered otherwise: ${JSON.stringify(report.other).slice(0, 200)}`);
      else if (report.retryAfter.some((value) => !(Number(value) >= 1))) problems.push(`a 429 without a Retry-After of a second or more`);
      if (counts.floodRefused === 0) problems.push(`the byte flood was never refused (${counts.floodAccepted} accepted)`);
      if (counts.deepRefused === 0) problems.push('no 100,000-deep body was refused 400');
      if (counts.templatesRefused === 0) problems.push('no 16 MB template was refused');
      if (!backtestId) return;
      const deadline = Date.now() + 60_000;
      let row: Answer;
      do {
        await sleep(500);
        row = await request(url, `/workflows-api/backtests/${backtestId}`, { key: hostile.key });
      } while (row.body?.data?.status === 'running' && Date.now() < deadline);
      const data = row.body?.data;
      counts.backtest = `${data?.status}${data?.error?.code ? ` ${data.error.code}` : ''}`;
      if (data?.status === 'running') await request(url, `/workflows-api/backtests/${backtestId}/cancel`, { key: hostile.key, method: 'POST' });
      if (data?.status !== 'failed' || data?.error?.code !== 'BACKTEST_CONDITION_TIMEOUT') problems.push(`the costly backtest ended ${counts.backtest}`);
    },
  };
}
