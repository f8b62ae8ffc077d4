import { emptyTally, roomForSample, type BacktestTally, type ConditionDecision, type StepTally } from './backtestTally';
import { wouldDo } from './backtestWouldDo';
import { contextFor, type RunContext } from './expressions';
import { GraphIndex, topologicalOrder } from './graph';
import { branchTaken } from './nodes/branches';
import { isAction, isTrigger, type AutomationDefinition, type AutomationNode } from './types';

/** One stored event of the trigger history, in recorded order (`seq`), as a live dispatch hands it to a run. */
export interface HistoryEvent {
  seq: string;
  /** The internal event (`{ id, event, operatorId, occurredAt, entity, data }`), entity fields opened like a live run's. */
  event: { id: string; event: string; entity: { id: string; externalId: string } | null } & Record<string, unknown>;
  /** The automation whose run wrote the event: a live dispatch never fires an automation with its own writes. */
  originWorkflowId: string | null;
  /** `player` as the run's conditions read it: the event's player as they are now (core/automations/playerSnapshot.ts), when a side reads it. */
  player?: Record<string, unknown>;
}

/** A condition or trigger filter to evaluate for real (in the sandbox). */
export interface Check {
  expression: string;
  field: string;
  context: RunContext;
}

export type CheckOutcome = { ok: true; value: unknown } | { ok: false; code: string; message: string };

/** Evaluates checks in order, one outcome each; the caller batches them into the sandbox. */
export type EvaluateChecks = (checks: Check[]) => Promise<CheckOutcome[]>;

/** The definition a backtest replays history through, with the declared outputs of its stubbed actions. */
export interface BacktestSubject {
  automationId: string;
  name: string;
  version: number;
  definition: AutomationDefinition;
  /** Per action step: the output its condition readers take instead of a real one. */
  sampleOutputs: Record<string, unknown>;
}

/** A player some action of the page would have acted for, by entity id, with how many actions. */
export type AffectedPlayers = Map<string, { externalId: string; actions: number }>;

export interface PageOutcome {
  tally: BacktestTally;
  players: AffectedPlayers;
}

type StepState = keyof StepTally;

/** Stands for a stubbed action's output that no sample declares: a condition that can read it is undecidable. */
const UNKNOWN = Symbol('unknown output');

interface RunState {
  event: HistoryEvent;
  context: RunContext;
  results: Map<string, StepState>;
  branches: Map<string, boolean | undefined>;
  failed: boolean;
  undecidable: boolean;
  actions: number;
}

const stubbed = (definition: AutomationDefinition) => definition.nodes.filter((node) => isAction(node.type));

/**
 * How each condition of a definition is decided: the stubbed actions it may read (by `contextFor`'s rule: an id named
 * in its expression, or every node when it reads `nodes` or the context as a whole), and whether samples cover them.
 */
export function conditionDecisions(subject: BacktestSubject): ConditionDecision[] {
  const actions = stubbed(subject.definition);
  const probe: RunContext = {
    trigger: null,
    nodes: Object.fromEntries(actions.map((node) => [node.id, null])),
    workflow: { id: '', name: '', version: 0 },
    run: { id: '', source: 'event' },
  };
  return subject.definition.nodes
    .filter((node) => node.type === 'condition')
    .map((node) => {
      const reads = Object.keys(contextFor({ expression: String(node.params.expression) }, probe).nodes).sort();
      const decidedBy = reads.length === 0 ? 'evaluated' : reads.every((id) => Object.hasOwn(subject.sampleOutputs, id)) ? 'sampleOutput' : 'undecidable';
      return { nodeId: node.id, decidedBy, reads };
    });
}

/**
 * Replays one page of history through a definition with every side effect stubbed (docs/compliance.md "Backtest").
 * Deterministic: the same events, definition, samples and check outcomes give the same tally. The page's runs advance
 * together, step by step in topological order, so each step's checks go to `evaluate` as one batch.
 *
 * An event starts a run as a live dispatch would (worker/outboxDispatch.ts): through the first event trigger of its
 * type whose filter passes, never with the automation's own writes; a filter that fails starts nothing. A condition
 * is evaluated for real; one that may read a stubbed action without a sample is `undecidable`, and so is every step
 * only such a step reaches. An action is counted and recorded (`WouldDo`), never performed; its output is its sample.
 */
export async function backtestPage(subject: BacktestSubject, events: HistoryEvent[], evaluate: EvaluateChecks): Promise<PageOutcome> {
  const { definition } = subject;
  const graph = new GraphIndex(definition);
  const order = topologicalOrder(definition);
  const tally = emptyTally();
  const players: AffectedPlayers = new Map();
  const step = (nodeId: string, state: StepState) => {
    const counts = (tally.steps[nodeId] ??= { completed: 0, skipped: 0, failed: 0, undecidable: 0 });
    counts[state] += 1;
  };

  const triggers = definition.nodes.filter((node) => node.type === 'trigger.event');
  const listened = new Set(triggers.map((node) => node.params.event));
  const heard = events.filter((item) => listened.has(item.event.event) && item.originWorkflowId !== subject.automationId);
  tally.events = heard.length;
  const runs: RunState[] = [];
  let waiting = heard;
  for (const trigger of triggers) {
    const mine = waiting.filter((item) => item.event.event === trigger.params.event);
    waiting = waiting.filter((item) => item.event.event !== trigger.params.event);
    const filter = typeof trigger.params.filter === 'string' && trigger.params.filter.trim() !== '' ? trigger.params.filter : null;
    const outcomes = filter
      ? await evaluate(mine.map((item) => ({ expression: filter, field: 'params.filter', context: runContext(subject, item, trigger.id) })))
      : null;
    mine.forEach((item, index) => {
      const outcome = outcomes?.[index];
      if (outcome && !(outcome.ok && outcome.value === true)) {
        waiting.push(item);
        return;
      }
      runs.push({
        event: item,
        context: { ...runContext(subject, item, trigger.id), ...(item.player ? { player: item.player } : {}) },
        results: new Map([[trigger.id, 'completed']]),
        branches: new Map(),
        failed: false,
        undecidable: false,
        actions: 0,
      });
    });
  }
  runs.sort((a, b) => compareSeq(a.event.seq, b.event.seq));
  tally.runs = runs.length;
  for (const run of runs) step([...run.results.keys()][0]!, 'completed');

  for (const nodeId of order) {
    const node = graph.node(nodeId)!;
    if (isTrigger(node.type)) {
      for (const run of runs) if (!run.results.has(nodeId)) step(nodeId, 'skipped');
      continue;
    }
    const checks: Array<{ run: RunState; check: Check }> = [];
    for (const run of runs) {
      const reach = run.failed ? 'skipped' : reachOf(graph, run, nodeId);
      if (reach !== 'completed') {
        settle(run, nodeId, reach);
        continue;
      }
      if (node.type === 'condition') {
        const expression = String(node.params.expression);
        const visible = contextFor({ expression }, run.context);
        if (Object.values(visible.nodes).includes(UNKNOWN)) settle(run, nodeId, 'undecidable');
        else checks.push({ run, check: { expression, field: 'params.expression', context: visible } });
        continue;
      }
      act(run, node);
    }
    const outcomes = checks.length > 0 ? await evaluate(checks.map((item) => item.check)) : [];
    checks.forEach(({ run }, index) => {
      const outcome = outcomes[index]!;
      if (!outcome.ok) {
        run.failed = true;
        return settle(run, nodeId, 'failed');
      }
      const result = outcome.value === true;
      run.branches.set(nodeId, result);
      run.context.nodes[nodeId] = { result };
      settle(run, nodeId, 'completed');
    });
  }

  for (const run of runs) {
    if (run.failed) tally.failedRuns += 1;
    if (run.undecidable) tally.undecidableRuns += 1;
    const entity = run.event.event.entity;
    if (run.actions > 0 && entity) {
      const before = players.get(entity.id);
      players.set(entity.id, { externalId: entity.externalId, actions: (before?.actions ?? 0) + run.actions });
    }
  }
  return { tally, players };

  function settle(run: RunState, nodeId: string, state: StepState): void {
    run.results.set(nodeId, state);
    if (state === 'undecidable') run.undecidable = true;
    step(nodeId, state);
  }

  function act(run: RunState, node: AutomationNode): void {
    const type = node.type as Parameters<typeof wouldDo>[0]['type'];
    const sample = Object.hasOwn(subject.sampleOutputs, node.id) ? subject.sampleOutputs[node.id] : UNKNOWN;
    run.context.nodes[node.id] = sample;
    run.branches.set(node.id, sample === UNKNOWN ? undefined : branchTaken(node.type, sample));
    run.actions += 1;
    tally.consumed.actions += 1;
    if (type === 'action.ai') tally.consumed.aiActions += 1;
    tally.actionsByType[type] = (tally.actionsByType[type] ?? 0) + 1;
    tally.actionsByNode[node.id] = (tally.actionsByNode[node.id] ?? 0) + 1;
    const entity = run.event.event.entity;
    if (roomForSample(tally.samples, node.id)) tally.samples.push(wouldDo({ ...node, type }, entity?.externalId ?? null));
    settle(run, node.id, 'completed');
  }
}

/**
 * Whether a step runs: `completed` when an incoming edge comes from a completed step on the branch it took;
 * `undecidable` when not, but one might (it comes from an undecidable step, or from a stubbed action whose branch only
 * its missing sample would tell); else `skipped`.
 */
function reachOf(graph: GraphIndex, run: RunState, nodeId: string): StepState {
  let maybe = false;
  for (const edge of graph.incoming(nodeId)) {
    const from = run.results.get(edge.from);
    if (from === 'undecidable') maybe = true;
    if (from !== 'completed') continue;
    if (edge.when === undefined) return 'completed';
    const branch = run.branches.get(edge.from);
    if (branch === undefined) maybe = true;
    else if (branch === edge.when) return 'completed';
  }
  return maybe ? 'undecidable' : 'skipped';
}

function runContext(subject: BacktestSubject, item: HistoryEvent, triggerNodeId: string): RunContext {
  return {
    trigger: item.event,
    nodes: { [triggerNodeId]: item.event },
    workflow: { id: subject.automationId, name: subject.name, version: subject.version },
    run: { id: `backtest-${item.seq}`, source: 'event' },
  };
}

const compareSeq = (a: string, b: string) => (a.length === b.length ? (a < b ? -1 : a > b ? 1 : 0) : a.length - b.length);
