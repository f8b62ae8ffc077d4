import { backtestPage, conditionDecisions, type BacktestSubject, type HistoryEvent, type PageOutcome } from '../../core/automations/backtest';
import { actionChanges, emptyTally, mergeTallies, type BacktestTally } from '../../core/automations/backtestTally';
import { definitionReadsPlayer } from '../../core/automations/playerRef';
import { playerView } from '../../core/automations/playerSnapshot';
import type { AutomationDefinition } from '../../core/automations/types';
import { playerSnapshotsById } from '../../commands/runs/player';
import type { InternalEvent } from '../../core/events';
import { openEventPii } from '../../core/pii';
import { findAutomation } from '../../db/queries/automations';
import {
  backtestPlayers,
  findBacktest,
  finishBacktest,
  historyPage,
  recordBacktestPage,
  type BacktestRow,
  type BacktestSide,
  type BacktestStatus,
} from '../../db/queries/backtests';
import { ExpressionSandbox } from '../../sandbox/expressionSandbox';
import type { ActivityDeps } from '../deps';
import { backtestEvaluator, BacktestStopped } from './backtestEvaluator';
import { BOOKKEEPING, type ActivityDeclarations } from '../declarations';

/** Events replayed per activity: a page takes about a second on two cores, so a cancel is heard within one. */
export const BACKTEST_PAGE_SIZE = 2_000;
/** Players listed per side of the result; the totals are exact. */
export const BACKTEST_PLAYER_LIST = 1_000;

export type BacktestStep = { kind: 'stop'; status: BacktestStatus | 'gone' } | { kind: 'more' | 'done'; processed: number };

/** Whether either side's steps read `player`: only then are the page's players read (one statement a page). */
const readsPlayer = (subjects: { backtested: BacktestSubject; baseline: BacktestSubject }) =>
  definitionReadsPlayer(subjects.backtested.definition) || definitionReadsPlayer(subjects.baseline.definition);

const eventsOf = (definition: AutomationDefinition) =>
  definition.nodes.filter((node) => node.type === 'trigger.event').map((node) => String(node.params.event));

/** The trigger event types either side of a backtest listens to: its history. */
export const historyEventsOf = (row: Pick<BacktestRow, 'definition' | 'baseline_definition'>) =>
  [...new Set([...eventsOf(row.definition), ...eventsOf(row.baseline_definition)])].sort();

/**
 * The activities of `backtestWorkflow` (workflows/backtest.ts). Conditions are evaluated in a sandbox of the backtests'
 * own (one process per worker, created on first use), batched, within one task's budget per batch: a backtest never
 * spends the sandbox share of the operator's live runs, one running backtest per operator bounds what it takes, and
 * each organisation's backtest has its own share of that process (`BACKTEST_OPERATOR_SHARE`), so several costly
 * backtests share it in turn. A page stops as soon as its backtest is no longer running, and a condition that the CPU
 * budget stops again and again ends the backtest `failed` with `BACKTEST_CONDITION_TIMEOUT` (backtestEvaluator.ts).
 */
export function createBacktestActivities({ db, config, keyring }: Pick<ActivityDeps, 'db' | 'config' | 'keyring'>) {
  let sandbox: ExpressionSandbox | undefined;
  const sandboxOf = () =>
    (sandbox ??= new ExpressionSandbox({
      timeoutMs: config.EXPRESSION_TIMEOUT_MS,
      memoryMb: config.EXPRESSION_MEMORY_MB,
      processes: 1,
      operatorShare: config.BACKTEST_OPERATOR_SHARE,
      burstMs: config.BACKTEST_OPERATOR_BURST_MS,
    }));
  const stillRunning = (operatorId: string, backtestId: string) => async () => (await findBacktest(db, operatorId, backtestId))?.status === 'running';

  const subjectsOf = async (row: BacktestRow): Promise<Record<BacktestSide, BacktestSubject> | null> => {
    const automation = await findAutomation(db, row.operator_id, row.automation_id);
    if (!automation) return null;
    const common = { automationId: automation.id, name: automation.name };
    return {
      backtested: { ...common, version: row.version ?? automation.version, definition: row.definition, sampleOutputs: row.sample_outputs },
      baseline: { ...common, version: row.baseline_version, definition: row.baseline_definition, sampleOutputs: row.sample_outputs },
    };
  };

  return {
    /**
     * Replays the next page of a backtest's history through both definitions and records it (once, however often the
     * activity is retried: db/queries/backtests.ts `recordBacktestPage`); `stop` when the job is no longer running.
     */
    async backtestPage(input: { operatorId: string; backtestId: string }): Promise<BacktestStep> {
      const row = await findBacktest(db, input.operatorId, input.backtestId);
      if (!row) return { kind: 'stop', status: 'gone' };
      if (row.status !== 'running') return { kind: 'stop', status: row.status };
      const subjects = await subjectsOf(row);
      if (!subjects) {
        const error = { code: 'WORKFLOW_NOT_FOUND', message: 'The workflow was deleted during the backtest' };
        await finishBacktest(db, row.operator_id, row.id, { status: 'failed', error });
        return { kind: 'stop', status: 'failed' };
      }
      const page = await historyPage(db, row, historyEventsOf(row), BACKTEST_PAGE_SIZE);
      if (page.length === 0) return { kind: 'done', processed: row.processed };
      const snapshots = readsPlayer(subjects)
        ? await playerSnapshotsById(
            { db, keyring },
            row.operator_id,
            page.flatMap((item) => item.event.entity?.id ?? []),
          )
        : null;
      const events: HistoryEvent[] = page.map((item) => {
        const snapshot = item.event.entity ? snapshots?.get(item.event.entity.id) : undefined;
        return {
          ...item,
          event: openEventPii(keyring, item.event as unknown as InternalEvent) as unknown as HistoryEvent['event'],
          ...(snapshot ? { player: playerView(snapshot) } : {}),
        };
      });
      const evaluate = backtestEvaluator(sandboxOf(), row.operator_id, stillRunning(row.operator_id, row.id), config.EXPRESSION_TIMEOUT_MS);
      let sides: [PageOutcome, PageOutcome];
      try {
        sides = await Promise.all([backtestPage(subjects.backtested, events, evaluate), backtestPage(subjects.baseline, events, evaluate)]);
      } catch (error) {
        if (!(error instanceof BacktestStopped)) throw error;
        if (error.reason === 'not_running') return { kind: 'stop', status: (await findBacktest(db, row.operator_id, row.id))?.status ?? 'gone' };
        const ended = await finishBacktest(db, row.operator_id, row.id, {
          status: 'failed',
          error: { code: 'BACKTEST_CONDITION_TIMEOUT', message: error.message },
        });
        return { kind: 'stop', status: ended?.status ?? 'gone' };
      }
      const [backtested, baseline] = sides;
      const before = row.tallies;
      const tallies: Record<BacktestSide, BacktestTally> = {
        backtested: mergeTallies(before?.backtested ?? emptyTally(), backtested.tally),
        baseline: mergeTallies(before?.baseline ?? emptyTally(), baseline.tally),
      };
      const players = (['backtested', 'baseline'] as const).flatMap((side) =>
        [...(side === 'backtested' ? backtested : baseline).players].map(([entityId, player]) => ({ side, entityId, ...player })),
      );
      await recordBacktestPage(db, row.operator_id, row.id, {
        fromCursor: row.cursor,
        toCursor: page[page.length - 1]!.seq,
        processed: page.length,
        tallies,
        players,
      });
      return { kind: page.length < BACKTEST_PAGE_SIZE ? 'done' : 'more', processed: row.processed + page.length };
    },

    /** Ends a running backtest: with its result (the tallies, the conditions, the players and the diff) when completed. */
    async endBacktest(input: {
      operatorId: string;
      backtestId: string;
      status: Exclude<BacktestStatus, 'running'>;
      error?: string;
    }): Promise<BacktestStatus | 'gone'> {
      const row = await findBacktest(db, input.operatorId, input.backtestId);
      if (!row) return 'gone';
      if (row.status !== 'running') return row.status;
      if (input.status !== 'completed') {
        const error = input.status === 'failed' ? { code: 'BACKTEST_FAILED', message: input.error ?? 'The backtest failed' } : undefined;
        return (await finishBacktest(db, row.operator_id, row.id, { status: input.status, ...(error ? { error } : {}) }))?.status ?? 'gone';
      }
      const subjects = await subjectsOf(row);
      if (!subjects) return 'gone';
      const backtested = row.tallies?.backtested ?? emptyTally();
      const baseline = row.tallies?.baseline ?? emptyTally();
      const types = new Map([...row.baseline_definition.nodes, ...row.definition.nodes].map((node) => [node.id, node.type]));
      const result = {
        backtested: { version: row.version, ...backtested, conditions: conditionDecisions(subjects.backtested) },
        baseline: { version: row.baseline_version, active: row.baseline_active, ...baseline },
        players: await backtestPlayers(db, row.operator_id, row.id, BACKTEST_PLAYER_LIST),
        actionChanges: actionChanges(backtested, baseline, (nodeId) => types.get(nodeId) ?? 'unknown'),
      };
      return (await finishBacktest(db, row.operator_id, row.id, { status: 'completed', result }))?.status ?? 'gone';
    },
  };
}

/** How each of these activities meets the budget of large data (../declarations.ts). */
export const BACKTEST_ACTIVITIES = {
  backtestPage: BOOKKEEPING,
  endBacktest: BOOKKEEPING,
} satisfies ActivityDeclarations<typeof createBacktestActivities>;
