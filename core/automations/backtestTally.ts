import type { ActionType } from './types';

/** How often a step of one definition ended each way over the replayed history. */
export interface StepTally {
  completed: number;
  skipped: number;
  failed: number;
  undecidable: number;
}

/**
 * What an action would have done, with every side effect stubbed: no personal data, only the player's id. `method`
 * and `target` say what it calls (an HTTP method and URL, an email's address template, a gateway operation and
 * connection); `template` is the text it would send as written, `{{ … }}` left unfilled except those that name the
 * player's id, which carry it.
 */
export interface WouldDo {
  nodeId: string;
  type: ActionType;
  playerId: string | null;
  method: string;
  target: string | null;
  template: string | null;
}

/** How a condition of the definition was decided in the backtest (`BacktestResult.conditions`). */
export interface ConditionDecision {
  nodeId: string;
  /** `evaluated`: reads only the trigger; `sampleOutput`: reads stubbed actions whose declared sample it used; `undecidable`: reads one without. */
  decidedBy: 'evaluated' | 'sampleOutput' | 'undecidable';
  /** The stubbed actions whose output it may read. */
  reads: string[];
}

/** One definition's tally over the events replayed so far: what is kept in `backtests.tallies` between pages. */
export interface BacktestTally {
  /** Events of the history that reached the definition's event triggers (of the types it listens to). */
  events: number;
  runs: number;
  failedRuns: number;
  undecidableRuns: number;
  steps: Record<string, StepTally>;
  actionsByType: Partial<Record<ActionType, number>>;
  actionsByNode: Record<string, number>;
  /** The quota the runs would consume (docs/workflows.md): every action step run, and the `action.ai` ones. */
  consumed: { actions: number; aiActions: number };
  /** The first few would-be actions of each action step, for the dashboard (at most `MAX_SAMPLES` a step). */
  samples: WouldDo[];
}

/** Actions recorded as samples per step of a definition: enough to read what they would send, small enough to store. */
export const MAX_SAMPLES = 5;

/** Whether one more sample of `nodeId` fits. */
export const roomForSample = (samples: WouldDo[], nodeId: string) => samples.filter((sample) => sample.nodeId === nodeId).length < MAX_SAMPLES;

export const emptyTally = (): BacktestTally => ({
  events: 0,
  runs: 0,
  failedRuns: 0,
  undecidableRuns: 0,
  steps: {},
  actionsByType: {},
  actionsByNode: {},
  consumed: { actions: 0, aiActions: 0 },
  samples: [],
});

function addCounts<K extends string>(into: Partial<Record<K, number>>, from: Partial<Record<K, number>>): Partial<Record<K, number>> {
  const sum: Partial<Record<K, number>> = { ...into };
  for (const [key, count] of Object.entries(from) as Array<[K, number]>) sum[key] = (sum[key] ?? 0) + count;
  return sum;
}

/** The tally of two consecutive stretches of history (pages), in order: counts add up, samples keep the earliest. */
export function mergeTallies(a: BacktestTally, b: BacktestTally): BacktestTally {
  const steps: Record<string, StepTally> = { ...a.steps };
  for (const [nodeId, step] of Object.entries(b.steps)) {
    const before = steps[nodeId] ?? { completed: 0, skipped: 0, failed: 0, undecidable: 0 };
    steps[nodeId] = {
      completed: before.completed + step.completed,
      skipped: before.skipped + step.skipped,
      failed: before.failed + step.failed,
      undecidable: before.undecidable + step.undecidable,
    };
  }
  return {
    events: a.events + b.events,
    runs: a.runs + b.runs,
    failedRuns: a.failedRuns + b.failedRuns,
    undecidableRuns: a.undecidableRuns + b.undecidableRuns,
    steps,
    actionsByType: addCounts(a.actionsByType, b.actionsByType),
    actionsByNode: addCounts(a.actionsByNode, b.actionsByNode) as Record<string, number>,
    consumed: { actions: a.consumed.actions + b.consumed.actions, aiActions: a.consumed.aiActions + b.consumed.aiActions },
    samples: b.samples.reduce((kept, sample) => (roomForSample(kept, sample.nodeId) ? [...kept, sample] : kept), a.samples),
  };
}

/** Actions whose count differs between the backtested definition and the active one, by step id (and type). */
export interface ActionChange {
  nodeId: string;
  type: string;
  backtested: number;
  active: number;
}

/**
 * The action side of the diff: every step whose would-fire count differs, a step only one definition has counting
 * zero on the other side (added or removed). Ordered by step id, so the result is the same however it is computed.
 */
export function actionChanges(backtested: BacktestTally, active: BacktestTally, typeOf: (nodeId: string) => string): ActionChange[] {
  const ids = [...new Set([...Object.keys(backtested.actionsByNode), ...Object.keys(active.actionsByNode)])].sort();
  return ids
    .map((nodeId) => ({ nodeId, type: typeOf(nodeId), backtested: backtested.actionsByNode[nodeId] ?? 0, active: active.actionsByNode[nodeId] ?? 0 }))
    .filter((change) => change.backtested !== change.active);
}
