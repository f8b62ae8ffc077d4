import { z } from 'zod';
import '../openapi/registry';

/** What a step in flight waits for (core/automations/liveRun.ts `LiveWait`). */
export const LiveWaitSchema = z
  .discriminatedUnion('for', [
    z.object({ for: z.literal('event'), event: z.string().describe('The event type awaited for the run’s entity'), until: z.string().describe('Its timeout') }),
    z.object({ for: z.literal('approval'), until: z.string().describe('When the approval gives up (approved: false)') }),
    z.object({ for: z.literal('delay'), until: z.string().describe('When the delay ends') }),
  ])
  .openapi('WorkflowRunWait');

/** A retry the step in flight waits in (core/automations/liveRun.ts `LiveRetry`). */
export const LiveRetrySchema = z
  .object({
    attempt: z.number().int().describe('The attempt that runs next, or runs now (2 = the first retry)'),
    nextAttemptAt: z.string().nullable().describe('When Temporal tries again; null while an attempt runs'),
    lastErrorCode: z.string().describe('The last attempt’s failure code (HTTP_503, NETWORK_ERROR, TIMEOUT, ERROR…), never its message'),
  })
  .openapi('WorkflowRunRetry');

/** The fields a step of a running run carries beside the stored ones (the step in flight is `running`). */
export const liveNodeFields = {
  startedAt: z.string().optional().describe('Only while the run runs: when the step started (absent on the trigger and on skipped steps)'),
  waiting: LiveWaitSchema.optional().describe('Only on the step in flight: what it waits for and until when'),
  retrying: LiveRetrySchema.optional().describe('Only on the step in flight: the retry one of its activities waits in'),
};

/** The step in flight as a list names it: the live fields of a node and its id, status and duration. */
export const LiveStepSchema = z
  .object({ id: z.string(), status: z.literal('running'), durationMs: z.number(), ...liveNodeFields })
  .openapi('WorkflowRunLiveStep');

/** How fresh a running run's steps are (api/automations/liveRuns.ts `LivePart`). */
export const LivePartSchema = z
  .object({
    answered: z.boolean().describe('false: the run’s workflow did not answer within 1.5 s; the record is the stored one (no steps yet)'),
    readAt: z.string().describe('When the workflow was asked'),
    done: z.number().int().optional().describe('Steps ended so far (skipped ones too), the trigger included'),
    total: z.number().int().optional().describe('Steps in the run’s graph'),
    current: LiveStepSchema.optional().describe('The step in flight, if one is'),
  })
  .openapi('WorkflowRunLive');
