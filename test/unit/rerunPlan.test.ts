import { rerunPlan, rerunStepProblem } from '../../core/automations/rerun';
import type { AutomationDefinition, NodeResult } from '../../core/automations/types';

/** start → first → big ⟶(yes) call → done, big ⟶(no) small; start → side (a parallel branch). */
const def: AutomationDefinition = {
  nodes: [
    { id: 'start', type: 'trigger.manual', params: {} },
    { id: 'first', type: 'action.http_request', params: {} },
    { id: 'big', type: 'condition', params: { expression: 'true' } },
    { id: 'call', type: 'action.http_request', params: {} },
    { id: 'done', type: 'action.set_state', params: {} },
    { id: 'small', type: 'action.ai', params: {} },
    { id: 'side', type: 'action.send_email', params: {} },
  ],
  edges: [
    { from: 'start', to: 'first' },
    { from: 'first', to: 'big' },
    { from: 'big', to: 'call', when: true },
    { from: 'call', to: 'done' },
    { from: 'big', to: 'small', when: false },
    { from: 'start', to: 'side' },
  ],
};

const original: NodeResult[] = [
  { id: 'start', status: 'completed', output: { n: 1 }, durationMs: 0 },
  { id: 'first', status: 'completed', input: { url: 'x' }, output: { body: { n: 1 } }, durationMs: 40 },
  { id: 'big', status: 'completed', output: { result: true }, branch: true, durationMs: 2 },
  { id: 'call', status: 'failed', error: { code: 'ACTION_FAILED', message: 'down' }, durationMs: 900 },
  { id: 'done', status: 'skipped', durationMs: 0 },
  { id: 'small', status: 'skipped', durationMs: 0 },
  { id: 'side', status: 'skipped', durationMs: 0 },
];

describe('rerunPlan', () => {
  it('keeps the completed results outside the rerun step and what follows it, marked reused', () => {
    const plan = rerunPlan(def, 'start', 'call', original);
    expect(plan.reused).toEqual([
      { id: 'first', status: 'completed', input: { url: 'x' }, output: { body: { n: 1 } }, durationMs: 0, reused: true },
      { id: 'big', status: 'completed', output: { result: true }, branch: true, durationMs: 0, reused: true },
    ]);
    // call, done, small (skipped by the original: decided anew) and side (skipped after the failure) may still run.
    expect(plan.budget).toEqual({ actions: 4, aiActions: 1 });
  });

  it('keeps nothing downstream of the chosen step, and never the trigger', () => {
    expect(rerunPlan(def, 'start', 'first', original).reused).toEqual([]);
    const rerunOfRerun = rerunPlan(def, 'start', 'done', [
      ...rerunPlan(def, 'start', 'call', original).reused,
      { id: 'call', status: 'completed', output: 1, durationMs: 5 },
    ]);
    expect(rerunOfRerun.reused.map((node) => node.id)).toEqual(['first', 'big', 'call']);
  });

  it('names why a step cannot be rerun from', () => {
    expect(rerunStepProblem(def, 'call', 3)).toBeNull();
    expect(rerunStepProblem(def, 'start', 3)).toBe('start is a trigger of version 3: choose a step after it');
    expect(rerunStepProblem(def, 'gone', 3)).toBe('gone is not a step of version 3');
  });
});
