import type { RunDataWrite } from '../../commands/runs/writeData';
import type { RunSource, RunStatus } from '../../core/automations/types';

export type { BeginRunInput, BeginRunResult, FinishRunInput } from '../../core/workflowContracts';

/** What the end step hands back: ids and status only; the record, outputs and all, is PostgreSQL's to give. */
export interface FinishRunResult {
  runId: string;
  source: RunSource;
  status: RunStatus;
}

export interface HttpRequestInput {
  /** Whose budget of large answers the response counts against (`activities/payloadBudget.ts`). */
  operatorId?: string;
  method: string;
  url: string;
  headers?: Record<string, string>;
  body?: unknown;
  /**
   * Sent as `Idempotency-Key` (unless the node sets that header itself): `<runId>:<nodeId>`, the same on every
   * attempt, so a receiver can drop the repeat an activity retry sends after a worker died mid-request.
   */
  idempotencyKey?: string;
}

export interface HttpRequestOutput {
  status: number;
  headers: Record<string, string>;
  body: unknown;
}

/** A data action; `automationId` marks the events it emits as this automation's own (no self-triggering). */
/** An automation's data action, as the use case commands/runs/writeData.ts takes it. */
export type DataWriteInput = RunDataWrite;

export interface AiChatInput {
  prompt: string;
  model?: string;
}

export interface AiChatOutput {
  text: string;
  model: string;
  usage: unknown;
}
