import { z } from 'zod';
import { encodeKeysetCursor, keysetCursorParam as keysetCursor } from '../keysetCursor';
import { RUN_SOURCES, type RunStatus } from '../../core/automations/types';
import { GATE_RULES } from '../../core/compliance/gate';
import { automationEverExisted, exploreRuns, type ExplorerRunRow, type RunsPageStart } from '../../db/queries/runsExplorer';
import type { AppDeps } from '../deps';
import type { Principal } from '../middleware/authenticate';
import type { Area } from '../endpoint';
import { AppError } from '../errors';
import { CodedError, jsonContent } from '../openapi/registry';
import { MAX_VERSION } from './versionSchema';
import { runsExplorerPage } from './examples';
import { liveRunsOfPage, livePartOf } from './liveRuns';
import { LivePartSchema } from './liveSchema';
import { automations } from './area';

const RUN_STATUSES = ['running', 'completed', 'failed', 'cancelled'] as const satisfies readonly RunStatus[];
const NODE_ID = '[A-Za-z0-9_-]{1,64}';

/** A whole number in [min, max], from a query string; one message for every way it can be wrong. */
const whole = (min: number, max: number) => {
  const error = `must be a whole number from ${min} to ${max}`;
  return z.coerce.number({ error }).int({ error }).min(min, { error }).max(max, { error });
};
const text = (max: number) => z.string().min(1, 'must not be empty').max(max, `must be at most ${max} characters`);

const instant = () =>
  z
    .string()
    .refine((value) => z.iso.datetime({ offset: true }).safeParse(value).success, 'must be an ISO 8601 date-time with a zone (2026-11-24T00:00:00Z)')
    .transform((value) => new Date(value));

/**
 * The explorer's query. Every filter is optional and they combine (AND); a bad one is a 400 naming it. `cursor`
 * continues from a previous page's `nextCursor` (keyset: stable while new runs arrive, and as fast on page 500 as on
 * page 1); `offset` is kept for the `limit`/`offset` style of the other lists, and the two do not mix.
 */
export const ExplorerRunsQuery = z
  .object({
    limit: whole(1, 100).default(50),
    offset: whole(0, 1_000_000).default(0),
    cursor: keysetCursor(/^run_[A-Za-z0-9_-]{1,100}$/)
      .transform(({ at, id }) => ({ startedAt: at, id }))
      .optional(),
    status: z.enum(RUN_STATUSES, { error: `must be one of ${RUN_STATUSES.join(', ')}` }).optional(),
    workflowId: text(200).optional().describe('One workflow (wf_…); 404 WORKFLOW_NOT_FOUND when the operator never had it'),
    player: text(256).optional().describe('An entity external id: runs whose trigger payload named it'),
    source: z.enum(RUN_SOURCES, { error: `must be one of ${RUN_SOURCES.join(', ')}` }).optional(),
    from: instant().optional().describe('Started at or after (ISO 8601 with a zone)'),
    to: instant().optional().describe('Started before (ISO 8601 with a zone)'),
    version: whole(1, MAX_VERSION).optional(),
    branch: z
      .string()
      .regex(new RegExp(`^${NODE_ID}:(true|false)$`), 'must be <conditionNodeId>:true or <conditionNodeId>:false')
      .transform((value) => ({ nodeId: value.slice(0, value.lastIndexOf(':')), taken: value.endsWith(':true') }))
      .optional()
      .describe('The branch a condition took: `<conditionNodeId>:true` or `:false`'),
    suppressed: z
      .enum(['true', ...GATE_RULES], { error: `must be true or one of ${GATE_RULES.join(', ')}` })
      .transform((value) => ({ rule: value === 'true' ? null : value }))
      .optional()
      .describe('Runs with a marketing step the responsible-gambling gate suppressed: by any rule (`true`) or by the one named'),
  })
  .strict()
  .superRefine((query, ctx) => {
    if (query.from && query.to && query.from > query.to) ctx.addIssue({ code: 'custom', path: ['to'], message: 'must not be before from' });
    if (query.cursor && query.offset > 0) ctx.addIssue({ code: 'custom', path: ['offset'], message: 'cannot be combined with cursor' });
  });

export const ExplorerRun = z
  .object({
    id: z.string().describe('run_…'),
    workflowId: z.string(),
    workflowName: z.string().nullable().describe("The workflow's name now (a deleted workflow keeps its name and its runs)"),
    workflowVersion: z.number().int(),
    source: z.enum(RUN_SOURCES),
    status: z.enum(RUN_STATUSES),
    error: z.object({ code: z.string(), nodeId: z.string().optional() }).optional().describe('The code and step of a failed or cancelled run'),
    startedAt: z.string(),
    completedAt: z.string().nullable(),
    durationMs: z.number().nullable(),
    subjectExternalIds: z.array(z.string()).describe('The entities (external ids) the trigger payload named'),
    temporalWorkflowId: z.string().describe('For the Temporal Web UI'),
    rerunOf: z.string().nullable().describe('The run this one reruns (POST /runs/{runId}/rerun or a replay); null for a first run'),
    suppressed: z
      .array(z.object({ nodeId: z.string(), rule: z.string() }))
      .optional()
      .describe('Only on a run with steps the responsible-gambling gate suppressed: each step and its rule'),
    live: LivePartSchema.optional().describe(
      'Only on the first 10 running runs of the page: how far the run is and the step in flight, from its live workflow',
    ),
  })
  .openapi('WorkflowRunSummary');

/** A run as the explorer lists it: ids, status, times and error code, nothing sealed (GET /runs/:runId opens it). */
function toExplorerRun(row: ExplorerRunRow): z.infer<typeof ExplorerRun> {
  return {
    id: row.id,
    workflowId: row.automation_id,
    workflowName: row.automation_name,
    workflowVersion: row.automation_version,
    source: row.source,
    status: row.status,
    ...(row.error ? { error: { code: row.error.code, ...(row.error.nodeId !== undefined ? { nodeId: row.error.nodeId } : {}) } } : {}),
    startedAt: row.started_at.toISOString(),
    completedAt: row.completed_at ? row.completed_at.toISOString() : null,
    durationMs: row.duration_ms,
    subjectExternalIds: row.subject_external_ids ?? [],
    temporalWorkflowId: row.temporal_workflow_id,
    rerunOf: row.rerun_of,
    ...(row.suppressed_nodes?.length ? { suppressed: row.suppressed_nodes.map((node) => ({ nodeId: node.id, rule: node.suppressed.rule })) } : {}),
  };
}

/**
 * `GET /runs`: the operator's runs across its automations, newest first. An automation id the operator never had —
 * another operator's included — is 404 `WORKFLOW_NOT_FOUND`, as on every other route that takes one.
 */
export const exploreRunsHandler = automations.handler({ input: { query: ExplorerRunsQuery } }, async ({ deps, ctx, input: { query }, principal }) => {
  const operatorId = principal.operatorId;
  if (query.workflowId && !(await automationEverExisted(deps.db, operatorId, query.workflowId))) {
    throw new AppError(404, 'WORKFLOW_NOT_FOUND', 'Workflow not found');
  }
  const start: RunsPageStart = query.cursor ? { after: query.cursor } : { offset: query.offset };
  const { rows, count, more } = await exploreRuns(
    deps.db,
    operatorId,
    {
      ...(query.status ? { status: query.status } : {}),
      ...(query.workflowId ? { automationId: query.workflowId } : {}),
      ...(query.player ? { player: query.player } : {}),
      ...(query.source ? { source: query.source } : {}),
      ...(query.from ? { from: query.from } : {}),
      ...(query.to ? { to: query.to } : {}),
      ...(query.version !== undefined ? { version: query.version } : {}),
      ...(query.branch ? { branch: query.branch } : {}),
      ...(query.suppressed ? { suppressed: query.suppressed } : {}),
    },
    { limit: query.limit, start },
  );
  const live = await liveRunsOfPage(deps, rows);
  const at = new Date();
  const present = (row: ExplorerRunRow) => ({ ...toExplorerRun(row), ...(live.has(row.id) ? { live: livePartOf(live.get(row.id), at) } : {}) });
  const last = rows[rows.length - 1];
  ctx.body = { success: true, data: rows.map(present), count, ...(more && last ? { nextCursor: encodeKeysetCursor(last.started_key, last.id) } : {}) };
});

/** Declares the explorer on the workflows area (api/automations/routes.ts). */
export function declareRunsExplorer<G extends string>(area: Area<AppDeps, G, Principal>): void {
  area.endpoint({
    method: 'get',
    path: '/runs',
    summary: "The operator's runs across its workflows, newest first, filtered and paged",
    description:
      'Filters combine. `count` is the total the filters match; `nextCursor` (present while more runs follow) continues with `cursor`, which is stable while new runs arrive; `offset` also works and does not mix with `cursor`. Nothing sealed is listed: `GET /runs/{runId}` opens a run.',
    responses: {
      200: jsonContent(
        z.object({ success: z.literal(true), data: z.array(ExplorerRun), count: z.number().int(), nextCursor: z.string().optional() }),
        'A page, the total count and the next page’s cursor',
        runsExplorerPage,
      ),
      400: jsonContent(CodedError, 'VALIDATION_FAILED: `details` names each bad filter (field and message)'),
      401: jsonContent(CodedError, 'UNAUTHORIZED: missing, invalid or revoked credentials'),
      404: jsonContent(CodedError, "WORKFLOW_NOT_FOUND: `workflowId` names no workflow of the operator (also another operator's)"),
    },
    ...exploreRunsHandler,
  });
}
