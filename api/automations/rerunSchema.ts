import { z } from 'zod';
import '../openapi/registry';
import { RERUN_VERSIONS } from '../../core/automations/rerun';
import { DEFAULT_REPLAY_RATE, MAX_REPLAY_RATE } from '../../commands/runs/replays';

export const ReplayIdParams = z.object({ replayId: z.string().min(1).max(200) });

const version = z
  .enum(RERUN_VERSIONS)
  .optional()
  .describe("run (default): the definition the original ran (its workflowVersion); current: the workflow's current definition");

export const RerunBody = z
  .object({
    fromNodeId: z.string().min(1).max(64).describe('A step of that version that is not a trigger: it and every step reachable from it run again'),
    version,
  })
  .strict()
  .openapi('WorkflowRerunInput', { example: { fromNodeId: 'notify', version: 'run' } });

export const RerunRecord = z
  .object({
    runId: z.string().describe('run_…, the new run (GET /runs/{runId})'),
    rerunOf: z.string().describe('The original run'),
    fromNodeId: z.string(),
    workflowVersion: z.number().int().optional().describe('The version the rerun executes'),
  })
  .openapi('WorkflowRerun');

export const ReplayBody = z
  .object({
    from: z.iso.datetime({ offset: true }).describe('Failed runs started at or after this instant…'),
    to: z.iso.datetime({ offset: true }).describe('…and before this one (and finished when the replay is created)'),
    version,
    ratePerSecond: z.number().int().min(1).max(MAX_REPLAY_RATE).optional().describe(`Reruns started per second (default ${DEFAULT_REPLAY_RATE})`),
  })
  .strict()
  .openapi('WorkflowReplayInput', { example: { from: '2026-03-15T09:00:00Z', to: '2026-03-15T10:00:00Z', version: 'run', ratePerSecond: 5 } });

export const ReplayRecord = z
  .object({
    id: z.string().describe('rpl_…'),
    workflowId: z.string(),
    status: z.enum(['running', 'completed', 'cancelled', 'failed']).describe('completed once every rerun it started has recorded its end'),
    from: z.string(),
    to: z.string(),
    version: z.enum(RERUN_VERSIONS),
    total: z.number().int().describe('Failed runs in the range when the replay was created'),
    started: z.number().int().describe('Reruns started so far'),
    succeeded: z.number().int().describe('Reruns that completed'),
    failed: z.number().int().describe('Reruns that failed, were cancelled or could not begin'),
    created_at: z.string(),
    completed_at: z.string().nullable(),
    errors: z
      .array(
        z.object({
          code: z.string().describe("The rerun's error code (CANCELLED for a cancelled rerun, UNKNOWN when it recorded none)"),
          count: z.number().int(),
          runIds: z.array(z.string()).describe('The first reruns with this code (at most 5), oldest first: GET /runs/{runId}'),
        }),
      )
      .describe('Reruns that failed or were cancelled, by error code, most frequent first'),
  })
  .openapi('WorkflowReplay');

export const ReplayPreviewBody = z
  .object({
    from: z.iso.datetime({ offset: true }).describe('Failed runs started at or after this instant…'),
    to: z.iso.datetime({ offset: true }).describe('…and before this one'),
  })
  .strip()
  .openapi('WorkflowReplayPreviewInput', { example: { from: '2026-03-15T09:00:00Z', to: '2026-03-15T10:00:00Z' } });

export const ReplayPreviewRecord = z
  .object({
    total: z.number().int().describe('Runs a replay created now would rerun: one per trigger event, its latest attempt, when that failed'),
    maxRuns: z.number().int().describe('The most one replay reruns (10,000): a larger total is refused'),
    byCode: z.array(z.object({ code: z.string(), count: z.number().int() })).describe('Those runs by error code, most frequent first'),
    sample: z
      .array(
        z.object({
          runId: z.string(),
          rerunOf: z.string().nullable().describe('Set when this latest attempt is itself a rerun'),
          startedAt: z.string(),
          errorCode: z.string(),
          failedNodeId: z.string().nullable(),
        }),
      )
      .describe('The oldest 5 of them'),
  })
  .openapi('WorkflowReplayPreview');
