import { msNumberToTs } from '@temporalio/common/lib/time';
import { livePartOf, withLiveSteps } from '../../api/automations/liveRuns';
import { RunRecord } from '../../api/automations/schema';
import type { NodeResult } from '../../core/automations/types';
import { retryOf } from '../../temporal/runTimeline';
import { LiveSteps } from '../../workflows/automation/timeline';

const T0 = Date.parse('2026-12-02T06:00:00.000Z');
/** A protobuf Timestamp as a describe answer holds it. */
const ts = (ms: number) => msNumberToTs(ms);

describe("a running run's timeline (workflows/automation/timeline.ts)", () => {
  it('reports ended steps without their sealed parts, the step in flight with its wait, and nothing of steps not reached', () => {
    const results = new Map<string, NodeResult>([
      ['start', { id: 'start', status: 'completed', output: { entity: { externalId: 'p-1' } }, durationMs: 0 }],
      [
        'mail',
        {
          id: 'mail',
          status: 'completed',
          input: { to: 'p-1@example.test' },
          output: { suppressed: true, rule: 'self_excluded', playerId: 'p-1', stateHash: 'ab' },
          durationMs: 12,
        },
      ],
      ['check', { id: 'check', status: 'completed', input: { expression: 'x' }, output: { result: false }, branch: false, durationMs: 1 }],
      ['no', { id: 'no', status: 'skipped', durationMs: 0 }],
    ]);
    const live = new LiveSteps();
    expect(live.read(T0)).toEqual({ steps: [], total: 0 });
    live.follow(['start', 'mail', 'check', 'no', 'wait', 'after'], results);
    live.started('mail', T0);
    live.started('check', T0 + 20);
    live.started('wait', T0 + 30);
    live.waiting('wait', { for: 'event', event: 'entity_event.transaction', until: new Date(T0 + 600_030).toISOString() });

    const read = live.read(T0 + 1_030);
    expect(read.total).toBe(6);
    expect(read.steps).toEqual([
      { id: 'start', status: 'completed', durationMs: 0 },
      { id: 'mail', status: 'completed', startedAt: '2026-12-02T06:00:00.000Z', durationMs: 12, suppressed: { rule: 'self_excluded' } },
      { id: 'check', status: 'completed', startedAt: '2026-12-02T06:00:00.020Z', durationMs: 1, branch: false },
      { id: 'no', status: 'skipped', durationMs: 0 },
      {
        id: 'wait',
        status: 'running',
        startedAt: '2026-12-02T06:00:00.030Z',
        durationMs: 1_000,
        waiting: { for: 'event', event: 'entity_event.transaction', until: '2026-12-02T06:10:00.030Z' },
      },
    ]);
    expect(JSON.stringify(read)).not.toContain('p-1');

    results.set('wait', { id: 'wait', status: 'failed', error: { code: 'WAIT_WITHOUT_ENTITY', message: 'about p-1' }, durationMs: 5 });
    expect(live.read(T0 + 2_000).steps.at(-1)).toEqual({
      id: 'wait',
      status: 'failed',
      startedAt: '2026-12-02T06:00:00.030Z',
      durationMs: 5,
      error: { code: 'WAIT_WITHOUT_ENTITY' },
    });
  });
});

describe('the retry of the step in flight (temporal/runTimeline.ts retryOf)', () => {
  it('is the first pending activity with a failure: its attempt, next try while in its backoff, and a code, never a message', () => {
    expect(retryOf([])).toBeUndefined();
    expect(retryOf([{ attempt: 1, state: 2 }])).toBeUndefined();
    const failure = { message: 'Encoded failure', applicationFailureInfo: { type: 'HTTP_503' } };
    expect(retryOf([{ attempt: 3, state: 1, lastFailure: failure, nextAttemptScheduleTime: ts(T0 + 2_000) }])).toEqual({
      attempt: 3,
      nextAttemptAt: '2026-12-02T06:00:02.000Z',
      lastErrorCode: 'HTTP_503',
    });
    // Started again: no next try yet.
    expect(retryOf([{ attempt: 3, state: 2, lastFailure: failure, nextAttemptScheduleTime: ts(T0) }])?.nextAttemptAt).toBeNull();
    expect(retryOf([{ attempt: 2, state: 1, lastFailure: { applicationFailureInfo: { type: 'Error' } } }])?.lastErrorCode).toBe('ERROR');
    expect(retryOf([{ attempt: 2, state: 1, lastFailure: { timeoutFailureInfo: {} } }])?.lastErrorCode).toBe('TIMEOUT');
    expect(retryOf([{ attempt: 2, state: 1, lastFailure: { applicationFailureInfo: { type: 'x'.repeat(10) } } }])?.lastErrorCode).toBe('ERROR');
  });
});

describe('a record with its live steps (api/automations/liveRuns.ts)', () => {
  const stored = { status: 'running' as const, nodes: [] as NodeResult[] };
  const at = new Date(T0);
  const live = {
    timeline: {
      steps: [
        { id: 'start', status: 'completed' as const, durationMs: 0 },
        { id: 'wait', status: 'running' as const, durationMs: 5, waiting: { for: 'delay' as const, until: '2026-12-02T06:01:00.000Z' } },
      ],
      total: 3,
    },
    readAt: at,
  };

  it('takes the live steps as nodes and says how far the run is', () => {
    expect(withLiveSteps(stored, { live, at })).toEqual({
      status: 'running',
      nodes: live.timeline.steps,
      live: { answered: true, readAt: '2026-12-02T06:00:00.000Z', done: 1, total: 3, current: live.timeline.steps[1] },
    });
  });

  it('keeps the stored record when the workflow did not answer, and leaves an ended or unasked run alone', () => {
    expect(withLiveSteps(stored, { live: undefined, at })).toEqual({ ...stored, live: { answered: false, readAt: '2026-12-02T06:00:00.000Z' } });
    expect(withLiveSteps({ ...stored, status: 'completed' as const }, { live, at })).toEqual({ ...stored, status: 'completed' });
    expect(withLiveSteps(stored, null)).toEqual(stored);
    expect(livePartOf({ ...live, timeline: { steps: [live.timeline.steps[0]!], total: 3 } }, at)).toEqual({
      answered: true,
      readAt: '2026-12-02T06:00:00.000Z',
      done: 1,
      total: 3,
    });
  });

  it('keeps the published run schema: a failed step with its code and a sealed message, a step in flight waiting and retrying', () => {
    const record = {
      id: 'run_1',
      workflowId: 'wf_1',
      workflowVersion: 1,
      source: 'manual' as const,
      status: 'running' as const,
      input: null,
      output: null,
      nodes: [] as NodeResult[],
      startedAt: '2026-12-02T06:00:00.000Z',
      completedAt: null,
      durationMs: null,
      rerunOf: null,
      rerunFromNodeId: null,
      replayId: null,
    };
    const steps = [
      { id: 'start', status: 'completed' as const, durationMs: 0 },
      { id: 'gone', status: 'failed' as const, startedAt: '2026-12-02T06:00:00.010Z', durationMs: 3, error: { code: 'HTTP_404' } },
      {
        id: 'hook',
        status: 'running' as const,
        startedAt: '2026-12-02T06:00:00.020Z',
        durationMs: 900,
        retrying: { attempt: 2, nextAttemptAt: '2026-12-02T06:00:01.000Z', lastErrorCode: 'HTTP_503' },
      },
    ];
    const shown = withLiveSteps(record, { live: { timeline: { steps, total: 4 }, readAt: at }, at });
    expect(RunRecord.safeParse(shown).success).toBe(true);
    expect(shown.nodes[1]).toMatchObject({ error: { code: 'HTTP_404', message: expect.stringMatching(/^Sealed/) } });
  });
});
