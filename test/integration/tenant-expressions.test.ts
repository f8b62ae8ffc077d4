import { randomUUID } from 'node:crypto';
import { startTestApp, type TestApp } from '../helpers/app';
import { chain, automationsClient, type AutomationsClient } from '../helpers/automations';
import { spawnWorker, type WorkerProcess } from '../helpers/worker';

/** The backtracking regex: one JSONata step, exponential in the number of a's. */
const CATASTROPHIC = '$contains("aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa!", /^(a+)+$/)';
/** The same regex hidden from the definition-time checker: `$eval` compiles it only when the run evaluates it. */
const HIDDEN = `$eval('${CATASTROPHIC}')`;
/** A string doubled to 2^28 characters: more heap than a sandbox process has. */
const GREEDY = `$eval('($f := function($s, $n){ $n = 0 ? $s : $f($s & $s, $n - 1) }; $length($f("x", 28)))')`;

/** A manual trigger, a condition, and a set_state on its true branch. */
function guarded(name: string, expression: string) {
  return {
    name,
    nodes: [
      { id: 'start', type: 'trigger.manual', params: {} },
      { id: 'c', type: 'condition', params: { expression } },
      { id: 'after', type: 'action.upsert_entity', params: { entityType: 'player', externalId: 'p-guarded', data: { country: 'MT' } } },
    ],
    edges: [
      { from: 'start', to: 'c' },
      { from: 'c', to: 'after', when: true },
    ],
  };
}

async function testRun(client: AutomationsClient, automationId: string, body: Record<string, unknown> = {}): Promise<any> {
  const response = await client.wf(`/workflows/${automationId}/test`, { method: 'POST', body });
  if (response.status !== 200) throw new Error(`test run answered ${response.status}: ${response.text}`);
  return response.body.data;
}

describe('tenant expressions cannot stop the platform', () => {
  const queue = `tenant-expressions-${randomUUID()}`;
  let worker: WorkerProcess;
  let app: TestApp;
  let client: AutomationsClient;

  /** Several expressions here each spend a whole second of CPU; the operator's share is the unit test's to prove. */
  const sandboxEnv = { TEMPORAL_TASK_QUEUE: queue, EXPRESSION_TIMEOUT_MS: '1000', EXPRESSION_OPERATOR_BURST_MS: '60000' };

  beforeAll(async () => {
    worker = await spawnWorker(sandboxEnv);
    app = await startTestApp({ TEMPORAL_TASK_QUEUE: queue });
    client = await automationsClient(app);
  });
  afterAll(async () => {
    await app?.close();
    await worker?.stop();
  });

  describe('at definition time: catastrophic regexes are refused, naming the field', () => {
    it('a condition: the issue’s expression answers 400 VALIDATION_FAILED at nodes[1].params.expression', async () => {
      const response = await client.wf('/workflows', {
        method: 'POST',
        body: guarded('Backtracking', CATASTROPHIC),
      });
      expect(response.status).toBe(400);
      expect(response.body.error.code).toBe('VALIDATION_FAILED');
      expect(response.body.error.details).toEqual([
        { field: 'nodes[1].params.expression', message: expect.stringMatching(/^regular expression \/\^\(a\+\)\+\$\/ can take exponential time to fail/) },
      ]);
    });

    it('an event filter and a template deep in a body are checked too; a safe regex passes', async () => {
      const response = await client.wf('/workflows', {
        method: 'POST',
        body: {
          name: 'Filters',
          nodes: [
            { id: 'on', type: 'trigger.event', params: { event: 'entity_event.transaction', filter: '$match(trigger.data.note, /(\\w+\\s?)*$/)' } },
            {
              id: 'tell',
              type: 'action.http_request',
              params: { method: 'POST', url: 'https://example.test/x', body: { text: 'ok {{ $replace(trigger.data.note, /^(a|a)*b$/, "") }}' } },
            },
          ],
          edges: [{ from: 'on', to: 'tell' }],
        },
      });
      expect(response.status).toBe(400);
      expect(response.body.error.details.map((problem: any) => problem.field)).toEqual(['nodes[0].params.filter', 'nodes[1].params.body.text']);
      const safe = await client.wf('/workflows', {
        method: 'POST',
        body: guarded('Safe', '$contains(trigger.email, /^[a-z0-9._-]+@example\\.test$/)'),
      });
      expect(safe.status).toBe(201);
    });
  });

  describe('at run time: the sandbox stops what the checker cannot see', () => {
    it('a backtracking condition fails its run with EXPRESSION_TIMEOUT naming node and field; the worker lives and runs the next', async () => {
      const bad = await client.create(guarded('Hidden regex', HIDDEN));
      const started = Date.now();
      const run = await testRun(client, bad.id);
      expect(run).toMatchObject({
        status: 'failed',
        error: { code: 'EXPRESSION_TIMEOUT', nodeId: 'c', message: 'Evaluating params.expression took more than the 1000 ms of CPU an expression may use' },
      });
      expect(run.nodes.map((node: any) => [node.id, node.status])).toEqual([
        ['start', 'completed'],
        ['c', 'failed'],
        ['after', 'skipped'],
      ]);
      // Past the budget's ten times in wall-clock time (the hard stop), a loaded machine still answers well within this.
      expect(Date.now() - started).toBeLessThan(20_000);
      expect(worker.child.exitCode).toBeNull();

      const good = await client.create(guarded('Plain', '$contains("abc", /b/)'));
      expect((await testRun(client, good.id)).status).toBe('completed');
    });

    it('a template that runs past the budget names its field; one that needs too much memory fails with EXPRESSION_MEMORY_LIMIT', async () => {
      const slowTemplate = await client.create(
        chain('Slow template', [
          {
            id: 'tell',
            type: 'action.http_request',
            params: { method: 'POST', url: 'https://example.test/x', body: { fine: '{{ 1 + 1 }}', text: `x {{ ${HIDDEN} }}` } },
          },
        ]),
      );
      expect((await testRun(client, slowTemplate.id)).error).toEqual({
        code: 'EXPRESSION_TIMEOUT',
        nodeId: 'tell',
        message: 'Evaluating params.body.text took more than the 1000 ms of CPU an expression may use',
      });
      const greedy = await client.create(guarded('Greedy', GREEDY));
      expect((await testRun(client, greedy.id)).error).toEqual({
        code: 'EXPRESSION_MEMORY_LIMIT',
        nodeId: 'c',
        message: 'Evaluating params.expression needed more than the 128 MB an expression may use',
      });
      expect(worker.child.exitCode).toBeNull();
    });

    it('a template whose value grows past 10 MB fails its step with EXPRESSION_OUTPUT_TOO_LARGE naming the field; so does its preview', async () => {
      const doubled = `{{ ($s := "xxxxxxxxxxxxxxxx"; ${Array.from({ length: 20 }, () => '$s := $s & $s;').join(' ')} $s) }}`;
      const grown = await client.create(
        chain('Grown value', [
          { id: 'first', type: 'action.set_state', params: { externalId: 'p-grown', key: 'note', value: doubled } },
          { id: 'second', type: 'action.set_state', params: { externalId: 'p-grown', key: 'note', value: doubled } },
        ]),
      );
      const run = await testRun(client, grown.id);
      expect(run.error).toEqual({
        code: 'EXPRESSION_OUTPUT_TOO_LARGE',
        nodeId: 'first',
        message: 'The value of params.value would be 16.0 MB, more than the 10.0 MB an expression may produce',
      });
      expect(run.nodes.map((node: { id: string; status: string }) => `${node.id} ${node.status}`)).toEqual([
        'start completed',
        'first failed',
        'second skipped',
      ]);
      const preview = await client.wf('/expressions/preview', { method: 'POST', body: { kind: 'template', expression: doubled } });
      expect(preview.body).toEqual({
        success: true,
        data: {
          ok: false,
          code: 'EXPRESSION_OUTPUT_TOO_LARGE',
          message: 'The value of expression would be 16.0 MB, more than the 10.0 MB an expression may produce',
        },
      });
    });

    it('a restart afterwards is clean: the new worker stays up and runs', async () => {
      await worker.stop();
      worker = await spawnWorker(sandboxEnv);
      const plain = await client.create(guarded('After restart', 'true'));
      expect((await testRun(client, plain.id)).status).toBe('completed');
      await new Promise((resolve) => setTimeout(resolve, 1_000));
      expect(worker.child.exitCode).toBeNull();
      expect(worker.lines.filter((line) => /"level":(50|60)/.test(line))).toEqual([]);
    });
  });
});

/**
 * The dispatcher of the shared test worker judges these events (the old dispatcher evaluated filters inline, and the
 * hidden regex held it for minutes: no other event was dispatched meanwhile). That the caller's own thread stays free
 * while a filter runs is test/unit/expressionSandbox.test.ts's.
 */
describe('an event filter past its budget stalls nobody', () => {
  let app: TestApp;
  let noisy: AutomationsClient;
  let quiet: AutomationsClient;

  beforeAll(async () => {
    app = await startTestApp();
    noisy = await automationsClient(app);
    quiet = await automationsClient(app);
    for (const client of [noisy, quiet]) {
      const player = await client.call('/entities', { method: 'POST', body: { externalId: 'p-1', entityType: 'player', data: { country: 'MT' } } });
      expect(player.status).toBe(201);
    }
  });
  afterAll(() => app?.close());

  it("records the noisy operator's events as skipped triggers of that automation while the other operator's runs start", async () => {
    const deposit = { eventType: 'transaction', data: { type: 'deposit', amount: 10, currency: 'EUR' } };
    const trap = await noisy.create({
      name: 'Trap',
      nodes: [
        { id: 'on', type: 'trigger.event', params: { event: 'entity_event.transaction', filter: HIDDEN } },
        { id: 'mark', type: 'action.set_state', params: { externalId: 'p-1', key: 'risk_score', value: 1 } },
      ],
      edges: [{ from: 'on', to: 'mark' }],
    });
    const fine = await quiet.create({
      name: 'Fine',
      nodes: [
        { id: 'on', type: 'trigger.event', params: { event: 'entity_event.transaction', filter: 'trigger.data.amount > 5' } },
        { id: 'mark', type: 'action.set_state', params: { externalId: 'p-1', key: 'risk_score', value: '{{ trigger.data.amount }}' } },
      ],
      edges: [{ from: 'on', to: 'mark' }],
    });

    for (let index = 0; index < 5; index += 1) {
      expect((await noisy.call('/entities/p-1/events', { method: 'POST', body: deposit })).status).toBe(201);
      expect((await quiet.call('/entities/p-1/events', { method: 'POST', body: deposit })).status).toBe(201);
    }
    // Each trap evaluation runs its whole budget in the sandbox: on a loaded machine the quiet runs may finish before
    // the first skip is written, so both are waited for within the same deadline.
    const deadline = Date.now() + 20_000;
    let quietRuns: any[] = [];
    let skipped: any[] = [];
    while (Date.now() < deadline) {
      quietRuns = (await quiet.wf(`/workflows/${fine.id}/runs?limit=100`)).body.data;
      skipped = (await noisy.wf(`/workflows/${trap.id}/skipped-triggers`)).body.data;
      if (quietRuns.filter((run: any) => run.status === 'completed').length === 5 && skipped.length > 0) break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(quietRuns.map((run: any) => run.status)).toEqual(['completed', 'completed', 'completed', 'completed', 'completed']);
    expect((await noisy.wf(`/workflows/${trap.id}/runs`)).body.data).toEqual([]);
    expect(skipped.length).toBeGreaterThan(0);
    expect(skipped.every((skip: { reason: string; code: string }) => skip.reason === 'filter_failed' && skip.code === 'EXPRESSION_TIMEOUT')).toBe(true);
  });
});
