import { z } from 'zod';
import '../openapi/registry';
import { NODE_TYPES, RUN_SOURCES } from '../../core/automations/types';
import type { TaskStatus } from '../../core/mcpTasks';
import { liveNodeFields, LivePartSchema } from './liveSchema';

export const AutomationIdParams = z.object({ id: z.string().min(1).max(200) });
export const RunIdParams = z.object({ runId: z.string().min(1).max(200) });

const limit = z.coerce.number().int().min(1).max(100).default(50);
const offset = z.coerce.number().int().min(0).max(1_000_000).default(0);

export const ListAutomationsQuery = z
  .object({
    limit,
    offset,
    active: z
      .enum(['true', 'false'])
      .transform((value) => value === 'true')
      .optional(),
  })
  .strict();
export const ListRunsQuery = z.object({ limit, offset }).strict();

/** The documented shape of a definition; `validateAutomationBody` (core/automations/definition.ts) checks it in full. */
export const AutomationNodeSchema = z
  .object({
    id: z.string().regex(/^[A-Za-z0-9_-]{1,64}$/),
    type: z.enum(NODE_TYPES),
    params: z.record(z.string(), z.unknown()).optional().describe('Exactly the params the node type takes (docs/workflows.md)'),
  })
  .openapi('WorkflowNode', { example: { id: 'start', type: 'trigger.event', params: { event: 'entity_event.transaction' } } });

export const AutomationEdgeSchema = z
  .object({ from: z.string(), to: z.string(), when: z.boolean().optional().describe('Only and always on edges leaving a condition') })
  .openapi('WorkflowEdge');

/** Each step's place in the dashboard's editor, by node id (core/automations/definition.ts `AutomationLayout`). */
export const WorkflowLayout = z
  .record(z.string(), z.object({ x: z.number(), y: z.number() }))
  .openapi('WorkflowLayout', { example: { start: { x: 40, y: 40 }, big: { x: 340, y: 40 } } });

/** Per-key run control of event runs (core/automations/runControl.ts; docs/workflows.md "Run control"). */
export const WorkflowRunControl = z
  .object({
    key: z.string().optional().describe("JSONata over { trigger, workflow }; default the event's entity externalId (events without an entity share one key)"),
    concurrency: z
      .object({ limit: z.number().int().min(1).max(100), when_busy: z.enum(['queue', 'skip', 'replace']) })
      .optional()
      .describe('Runs of one key at once; a trigger for a busy key waits (queue, at most 100), is skipped, or cancels the oldest run (replace)'),
    throttle: z
      .object({ limit: z.number().int().min(1).max(10_000), period_seconds: z.number().int().min(1).max(86_400) })
      .optional()
      .describe('At most limit triggers per key in a fixed window opened by the first; the rest are skipped'),
    debounce: z
      .object({ quiet_seconds: z.number().int().min(1).max(86_400) })
      .optional()
      .describe('One run with the last trigger once the key had none for quiet_seconds; not with when_busy replace'),
    cancel_on: z.array(z.string()).min(1).max(20).optional().describe("Events that end the key's running runs (cancelled) and drop its waiting triggers"),
  })
  .openapi('WorkflowRunControl', { example: { concurrency: { limit: 1, when_busy: 'skip' }, cancel_on: ['entity_event.self_exclusion'] } });

export const AutomationBodySchema = z
  .object({
    name: z.string().min(1).max(200),
    description: z.string().optional(),
    active: z.boolean().optional(),
    mcp_exposed: z.boolean().optional(),
    nodes: z.array(AutomationNodeSchema).max(100),
    edges: z.array(AutomationEdgeSchema).max(200).optional(),
    layout: WorkflowLayout.optional().describe('Where the editor shows each step; absent on an update keeps the stored places. Never bumps version'),
    run_control: WorkflowRunControl.nullable().optional().describe('Per-key control of event runs; null: none. Bumps version'),
  })
  .openapi('WorkflowInput', {
    example: {
      name: 'Big deposit alert',
      description: 'Flags large deposits',
      active: true,
      mcp_exposed: true,
      nodes: [
        { id: 'start', type: 'trigger.event', params: { event: 'entity_event.transaction' } },
        { id: 'big', type: 'condition', params: { expression: 'trigger.data.amount > 100000' } },
        { id: 'flag', type: 'action.set_state', params: { externalId: '{{ trigger.entity.externalId }}', key: 'risk_score', value: 80 } },
      ],
      edges: [
        { from: 'start', to: 'big' },
        { from: 'big', to: 'flag', when: true },
      ],
    },
  });

export const AutomationRecord = z
  .object({
    id: z.string().describe('wf_…'),
    name: z.string(),
    description: z.string(),
    active: z.boolean(),
    mcp_exposed: z.boolean(),
    mcp_tool_name: z.string().describe('Slug of the name, unique per operator'),
    version: z.number().int().describe('1 at creation, +1 on every update that changes more than the layout'),
    nodes: z.array(AutomationNodeSchema),
    edges: z.array(AutomationEdgeSchema),
    layout: WorkflowLayout,
    run_control: WorkflowRunControl.nullable().describe('null: runs start as triggered'),
    created_at: z.string(),
    updated_at: z.string(),
  })
  .openapi('Workflow');

/** Every status of an MCP task (core/mcpTasks.ts `TaskStatus`). */
const TASK_STATUSES = ['working', 'input_required', 'completed', 'failed', 'cancelled'] as const satisfies readonly TaskStatus[];

export const RunTask = z
  .object({
    id: z.string().describe('task_…, the id the agent polls with tasks/get'),
    status: z
      .enum(TASK_STATUSES)
      .describe(
        'as tasks/get reads it: working while the run runs (input_required while it waits for an approval), completed once it ended (failed runs too), cancelled at once when its cancellation was asked',
      ),
  })
  .openapi('WorkflowRunTask');

const RunErrorSchema = z.object({ code: z.string(), message: z.string(), nodeId: z.string().optional() });

export const RunRecord = z
  .object({
    id: z.string().describe('run_…'),
    workflowId: z.string(),
    workflowVersion: z.number().int(),
    source: z.enum(RUN_SOURCES),
    status: z
      .enum(['running', 'completed', 'failed', 'cancelled'])
      .describe('cancelled: stopped on an MCP client’s notifications/cancelled or tasks/cancel, or by POST /workflows-api/runs/{runId}/cancel'),
    temporalWorkflowId: z.string().optional().describe('the Temporal workflow id of the run (Temporal Web UI); absent only while a run is not recorded yet'),
    input: z.unknown(),
    output: z.unknown(),
    nodes: z.array(
      z.object({
        id: z.string(),
        status: z
          .enum(['completed', 'failed', 'skipped', 'cancelled', 'running'])
          .describe('cancelled: running when the run was cancelled; running: only while the run runs, the step in flight'),
        input: z
          .unknown()
          .optional()
          .describe("What the step was given: an action's rendered params, a condition's expression (runs recorded before this field have none)"),
        output: z.unknown().optional(),
        branch: z.boolean().optional().describe('Only on a condition that ran: the branch it took'),
        error: RunErrorSchema.omit({ nodeId: true }).optional(),
        durationMs: z.number(),
        reused: z.literal(true).optional().describe("Only on a rerun: the original run's result, kept and not run again"),
        suppressed: z
          .object({ rule: z.string() })
          .optional()
          .describe('Only on a marketing step the responsible-gambling gate suppressed (its status is completed): the rule (docs/compliance.md)'),
        ...liveNodeFields,
      }),
    ),
    error: RunErrorSchema.optional(),
    startedAt: z.string(),
    completedAt: z.string().nullable(),
    durationMs: z.number().nullable(),
    rerunOf: z.string().nullable().describe('The run this one reruns (POST /runs/{runId}/rerun, or a replay); null for any other run'),
    rerunFromNodeId: z.string().nullable().describe('The step a rerun started again from'),
    replayId: z.string().nullable().describe('The replay job (rpl_…) that started this rerun'),
    awaitingInput: z
      .object({ nodeId: z.string(), message: z.string(), until: z.string() })
      .optional()
      .describe('Only on GET /runs/{runId} of a run waiting in an action.approval: the question, and when it gives up (approved: false)'),
    live: LivePartSchema.optional().describe(
      'Only on a running run (GET /runs/{runId}, and the first 10 running runs of a list page): its steps so far are read from its live workflow, and `nodes` holds them (docs/workflows.md "A run while it lives")',
    ),
    task: RunTask.optional().describe(
      'Only on a run an agent started as an MCP task (docs/mcp.md "Tasks"), while the task lives (its TTL); absent on every other run',
    ),
  })
  .openapi('WorkflowRun');

/** A run as a workflow's run list shows it: without its payload and output (sealed; `GET /runs/{runId}` opens them). */
export const RunListItem = RunRecord.omit({ input: true, output: true }).openapi('WorkflowRunListItem');

const Counter = z.object({ used: z.number().int(), limit: z.number().int(), remaining: z.number().int() });
export const UsageRecord = z.object({ month: z.string().describe('YYYY-MM (UTC)'), actions: Counter, aiActions: Counter }).openapi('WorkflowUsage');

export const ApprovalBody = z
  .object({ approved: z.boolean(), comment: z.string().max(1000).optional() })
  .strict()
  .openapi('WorkflowRunApproval');
