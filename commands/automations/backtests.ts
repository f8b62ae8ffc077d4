import { isAction, type AutomationDefinition } from '../../core/automations/types';
import { prefixedId } from '../../core/ids';
import { findVersion } from '../../db/queries/automationVersions';
import { createBacktest, findBacktest, finishBacktest, type BacktestRow } from '../../db/queries/backtests';
import type { CommandDeps } from '../deps';
import { CommandError } from '../errors';
import { requireAutomation } from './lookup';
import { validAutomationBody } from './validate';
import { versionNotFound } from './versions';

/**
 * The most stored events one backtest replays (of the types its definitions listen to): a wider range is refused, to
 * be narrowed. 100,000 events replay in well under a minute on two cores (docs/benchmarks.md).
 */
export const MAX_BACKTEST_EVENTS = 100_000;

/** Starts and cancels a backtest's job (temporal/backtests.ts), handed in since commands sit below temporal/. */
export interface BacktestJobs {
  startBacktest: (input: { operatorId: string; backtestId: string }) => Promise<unknown>;
  cancelBacktest: (backtestId: string) => Promise<unknown>;
}

export interface BacktestRequest {
  operatorId: string;
  automationId: string;
  from: Date;
  to: Date;
  /** A saved version to backtest, or a draft `definition` (exactly one of the two); neither backtests the current version. */
  version?: number;
  definition?: { nodes: unknown; edges: unknown };
  sampleOutputs?: Record<string, unknown>;
}

const invalid = (field: string, message: string) => new CommandError('VALIDATION_FAILED', `Invalid input: ${field} ${message}`, [{ field, message }]);
const notFound = () => new CommandError('BACKTEST_NOT_FOUND', 'Backtest not found');

/** The definition to backtest: a saved version, a validated draft (its problems named under `definition.`), or the current one. */
async function definitionOf(
  deps: Pick<CommandDeps, 'db'>,
  input: BacktestRequest,
  current: { name: string; version: number; nodes: AutomationDefinition['nodes']; edges: AutomationDefinition['edges'] },
) {
  if (input.version !== undefined && input.definition !== undefined) throw invalid('definition', 'cannot be sent with version: backtest one or the other');
  if (input.version !== undefined) {
    const row = await findVersion(deps.db, input.operatorId, input.automationId, input.version);
    if (!row) throw versionNotFound(input.version);
    return { version: row.version, definition: { nodes: row.definition.nodes, edges: row.definition.edges } };
  }
  if (input.definition === undefined) return { version: current.version, definition: { nodes: current.nodes, edges: current.edges } };
  try {
    const body = await validAutomationBody({ name: current.name, nodes: input.definition.nodes, edges: input.definition.edges });
    return { version: null, definition: { nodes: body.nodes, edges: body.edges } };
  } catch (error) {
    if (!(error instanceof CommandError) || !Array.isArray(error.details)) throw error;
    const details = (error.details as Array<{ field: string; message: string }>).map((problem) => ({ ...problem, field: `definition.${problem.field}` }));
    throw new CommandError('VALIDATION_FAILED', `Invalid input: ${details.map((problem) => `${problem.field}: ${problem.message}`).join('; ')}`, details);
  }
}

/**
 * Creates a backtest of an automation over `[from, to)` and starts its job (docs/compliance.md "Backtest").
 * `WORKFLOW_NOT_FOUND` (another operator's too) or `VERSION_NOT_FOUND`; `VALIDATION_FAILED` naming `to` (an empty
 * range, or one holding more than `MAX_BACKTEST_EVENTS` events), `definition…` (a draft that is not valid, or has no
 * event trigger) or `sampleOutputs.<id>` (not an action of the definition); `BACKTEST_ALREADY_RUNNING` while the
 * operator has a running backtest.
 */
export async function startBacktest(deps: Pick<CommandDeps, 'db'> & BacktestJobs, input: BacktestRequest): Promise<BacktestRow> {
  const automation = await requireAutomation(deps, input.operatorId, input.automationId);
  if (input.to.getTime() <= input.from.getTime()) throw invalid('to', 'must be after from');
  const subject = await definitionOf(deps, input, automation);
  if (!subject.definition.nodes.some((node) => node.type === 'trigger.event')) {
    throw invalid(input.definition ? 'definition.nodes' : 'version', 'has no event trigger: a backtest replays stored events through event triggers');
  }
  const sampleOutputs = input.sampleOutputs ?? {};
  for (const nodeId of Object.keys(sampleOutputs)) {
    const node = subject.definition.nodes.find((candidate) => candidate.id === nodeId);
    if (!node || !isAction(node.type)) throw invalid(`sampleOutputs.${nodeId}`, 'is not an action step of the backtested definition');
  }
  const baseline = { nodes: automation.nodes, edges: automation.edges };
  const row = {
    id: prefixedId('bkt'),
    operator_id: input.operatorId,
    automation_id: automation.id,
    version: subject.version,
    definition: subject.definition,
    sample_outputs: sampleOutputs,
    baseline_version: automation.version,
    baseline_active: automation.active,
    baseline_definition: baseline,
    range_from: input.from,
    range_to: input.to,
  };
  const events = [
    ...new Set([...subject.definition.nodes, ...baseline.nodes].filter((node) => node.type === 'trigger.event').map((node) => String(node.params.event))),
  ];
  const created = await createBacktest(deps.db, row, events, MAX_BACKTEST_EVENTS);
  if (created.kind === 'busy') {
    throw new CommandError('BACKTEST_ALREADY_RUNNING', `A backtest is already running (${created.runningId}): wait for it or cancel it`, {
      backtestId: created.runningId,
    });
  }
  if (created.kind === 'too_many')
    throw invalid('to', `the range holds ${created.count} events, more than the ${MAX_BACKTEST_EVENTS} a backtest replays: narrow it`);
  try {
    await deps.startBacktest({ operatorId: input.operatorId, backtestId: created.row.id });
  } catch (error) {
    await finishBacktest(deps.db, input.operatorId, created.row.id, {
      status: 'failed',
      error: { code: 'BACKTEST_FAILED', message: 'The job could not be started' },
    });
    throw error;
  }
  return created.row;
}

/** A backtest of the operator: `BACKTEST_NOT_FOUND` for an unknown id and another operator's alike. */
export async function requireBacktest(deps: Pick<CommandDeps, 'db'>, operatorId: string, backtestId: string): Promise<BacktestRow> {
  const row = await findBacktest(deps.db, operatorId, backtestId);
  if (!row) throw notFound();
  return row;
}

/** Cancels a running backtest: it replays no further page and keeps no result. `BACKTEST_NOT_FOUND`; `BACKTEST_NOT_RUNNING`. */
export async function cancelBacktest(deps: Pick<CommandDeps, 'db'> & BacktestJobs, input: { operatorId: string; backtestId: string }): Promise<BacktestRow> {
  const row = await requireBacktest(deps, input.operatorId, input.backtestId);
  const cancelled = await finishBacktest(deps.db, input.operatorId, row.id, { status: 'cancelled' });
  if (!cancelled) throw new CommandError('BACKTEST_NOT_RUNNING', `The backtest has already ended (${row.status})`);
  await deps.cancelBacktest(row.id);
  return cancelled;
}
