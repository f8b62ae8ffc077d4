import type { ApprovalAnswer } from '../../core/automations/approval';
import { awaitingInputOf, findRun, type RunRow } from '../../db/queries/automationRuns';
import type { CommandDeps } from '../deps';
import { CommandError } from '../errors';

/**
 * Delivers an answer to the approval a run waits in (a Temporal Update of its workflow): `not_waiting` when the
 * workflow refused it. Implemented by temporal/automationRuns.ts (`answerRunApproval`) and handed in by the caller.
 */
export type RunApprovalAnswer = (temporalWorkflowId: string, answer: ApprovalAnswer) => Promise<'answered' | 'not_waiting'>;

export interface AnswerApprovalInput {
  operatorId: string;
  runId: string;
  approved: boolean;
  comment?: string;
  /** `member:<id>` for an Owner or Admin, `key:<id>` for an API key. */
  answeredBy: string;
}

const notWaiting = () => new CommandError('RUN_NOT_AWAITING_INPUT', 'The run is not waiting for an approval');

/**
 * Approves or refuses the `action.approval` a running run waits in; the run goes on by its edges with the answer as the
 * step's output. `RUN_NOT_FOUND` for an unknown id and another operator's run alike;
 * `RUN_NOT_AWAITING_INPUT` when it waits for nothing (ended, answered already, timed out). Returns the run as stored.
 */
export async function answerApproval(
  deps: Pick<CommandDeps, 'db' | 'keyring'> & { answerRunApproval: RunApprovalAnswer },
  input: AnswerApprovalInput,
): Promise<RunRow> {
  const run = await findRun(deps.db, input.operatorId, input.runId);
  if (!run) throw new CommandError('RUN_NOT_FOUND', 'Run not found');
  const awaiting = run.status === 'running' ? await awaitingInputOf(deps.keyring, run) : undefined;
  if (!awaiting) throw notWaiting();
  const answer: ApprovalAnswer = {
    nodeId: awaiting.nodeId,
    approved: input.approved,
    answeredBy: input.answeredBy,
    ...(input.comment ? { comment: input.comment } : {}),
  };
  if ((await deps.answerRunApproval(run.temporal_workflow_id, answer)) === 'not_waiting') throw notWaiting();
  return (await findRun(deps.db, input.operatorId, input.runId)) ?? run;
}
