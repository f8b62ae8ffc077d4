import { z } from 'zod';
import { contextFor, type RunContext } from '../../core/automations/expressions';
import { MAX_EXPRESSION_LENGTH } from '../../core/automations/nodeParams';
import { gatedPlayerOf } from '../../core/automations/nodes/marketing';
import { playerView } from '../../core/automations/playerSnapshot';
import { triggerContextOf } from '../../core/automations/triggerPayload';
import { playerSnapshot } from '../../commands/runs/player';
import { toRunRecord } from '../../core/automations/runRecord';
import { findRun } from '../../db/queries/automationRuns';
import { findAutomation } from '../../db/queries/automations';
import { ExpressionSandbox, SandboxUnavailableError } from '../../sandbox/expressionSandbox';
import type { ExpressionFailureCode } from '../../sandbox/tasks';
import { jsonObject } from '../jsonObject';
import type { AppDeps } from '../deps';
import { AppError } from '../errors';
import { automations } from './area';

export const ExpressionPreviewBody = z
  .object({
    expression: z.string().min(1).max(MAX_EXPRESSION_LENGTH).describe('A JSONata condition, or text with `{{ }}` templates'),
    kind: z.enum(['condition', 'template']).describe('`condition`: answered true or false as a run would; `template`: the rendered value'),
    sample: jsonObject.optional().describe('The trigger payload to evaluate against (`trigger`)'),
    runId: z
      .string()
      .min(1)
      .max(200)
      .optional()
      .describe("A run of this operator: its trigger payload, its steps' outputs and its player (`player`, as the player is now)"),
    player: jsonObject.optional().describe('With `sample`: the player the run is about, as expressions read it (`player.first_name`, `player.kyc_status`)'),
    event: z
      .record(z.string(), z.unknown())
      .optional()
      .describe('For the filter of an `action.wait_for_event`: the arriving event the filter reads as `event`'),
  })
  .strict()
  .superRefine((body, ctx) => {
    if (body.sample !== undefined && body.runId !== undefined)
      ctx.addIssue({ code: 'custom', path: ['runId'], message: 'give either sample or runId, not both' });
    if (body.player !== undefined && body.runId !== undefined)
      ctx.addIssue({ code: 'custom', path: ['player'], message: "cannot be sent with runId: a run's player is read from your data" });
  })
  .openapi('ExpressionPreviewInput');

export const ExpressionPreviewRecord = z
  .union([
    z.object({ ok: z.literal(true), value: z.unknown().describe('The value; a condition answers true or false') }),
    z.object({
      ok: z.literal(false),
      code: z.enum(['EXPRESSION_ERROR', 'EXPRESSION_TIMEOUT', 'EXPRESSION_MEMORY_LIMIT', 'EXPRESSION_OUTPUT_TOO_LARGE', 'EXPRESSION_BUDGET_EXCEEDED']),
      message: z.string(),
    }),
  ])
  .openapi('ExpressionPreview');

export type ExpressionPreview = { ok: true; value: unknown } | { ok: false; code: ExpressionFailureCode; message: string };

/**
 * The API process's own expression sandbox, started at the first preview: the same child processes and budgets as the
 * worker's (`EXPRESSION_*`: CPU time, heap, each operator's share of the sandbox), so a preview never evaluates tenant
 * JSONata on a thread that serves requests, and a tenant previewing a runaway expression spends its previews' share,
 * not its runs'. Idle sandbox processes do not keep the API alive and end with it.
 */
const sandboxes = new WeakMap<AppDeps['config'], ExpressionSandbox>();
function sandboxOf(deps: AppDeps): ExpressionSandbox {
  let sandbox = sandboxes.get(deps.config);
  if (!sandbox) {
    const { config } = deps;
    sandbox = new ExpressionSandbox({
      timeoutMs: config.EXPRESSION_TIMEOUT_MS,
      memoryMb: config.EXPRESSION_MEMORY_MB,
      processes: config.EXPRESSION_PROCESSES,
      operatorShare: config.EXPRESSION_OPERATOR_SHARE,
      burstMs: config.EXPRESSION_OPERATOR_BURST_MS,
      onOverBudget: ({ operatorId, code }) => deps.logger.info({ operatorId, code }, 'expression preview stopped by its budget'),
    });
    sandboxes.set(deps.config, sandbox);
  }
  return sandbox;
}

const NO_WORKFLOW = { id: '', name: '', version: 0 };
const PREVIEW_WAIT_MS = 2_000;

/**
 * What the previewed expression sees: a sample as `trigger` (nothing else ran) with a sample `player`, or a run's
 * context as its steps saw it — its trigger payload (read as a run of its source reads it), the outputs of its steps
 * and its player as the player is now (the run's own snapshot lives sealed in its Temporal history only). Another
 * operator's run answers 404 like a missing one.
 */
async function contextOf(
  deps: AppDeps,
  operatorId: string,
  body: { sample?: Record<string, unknown>; runId?: string; player?: Record<string, unknown> },
): Promise<RunContext> {
  if (body.runId === undefined)
    return { trigger: body.sample ?? {}, nodes: {}, workflow: NO_WORKFLOW, run: { id: '', source: 'manual' }, ...(body.player ? { player: body.player } : {}) };
  const row = await findRun(deps.db, operatorId, body.runId);
  if (!row) throw new AppError(404, 'RUN_NOT_FOUND', 'Run not found');
  const run = await toRunRecord(row, deps.keyring);
  const automation = await findAutomation(deps.db, operatorId, run.workflowId);
  const triggerNode = automation?.nodes.find((node) => node.id === row.trigger_node_id);
  const trigger = triggerNode ? triggerContextOf(run.source, triggerNode.type, triggerNode.params.event, run.input) : run.input;
  const nodes: Record<string, unknown> = {};
  for (const result of run.nodes) if (result.status === 'completed') nodes[result.id] = result.output;
  const externalId = gatedPlayerOf(trigger);
  const snapshot = externalId === null ? null : await playerSnapshot(deps, operatorId, externalId);
  return {
    trigger,
    nodes,
    workflow: { id: run.workflowId, name: automation?.name ?? '', version: run.workflowVersion },
    run: { id: run.id, source: run.source },
    ...(snapshot ? { player: playerView(snapshot) } : {}),
  };
}

/**
 * `POST /expressions/preview`: evaluates one expression the way a run would, in the sandbox and within the tenant's
 * expression budget. The expression's own failure (it does not compile, fails, or breaks a budget) is an answer
 * (200, `ok: false` with the code a run would fail with), not an error: the editor shows it next to the field.
 */
export const previewExpressionHandler = automations.handler({ input: { body: ExpressionPreviewBody } }, async ({ deps, ctx, input: { body }, principal }) => {
  const operatorId = principal.operatorId;
  const context = await contextOf(deps, operatorId, body);
  // As in a run, only the step outputs the expression names cross into the sandbox.
  const params = { expression: body.expression };
  const task =
    body.kind === 'condition'
      ? {
          kind: 'condition' as const,
          expression: body.expression,
          field: 'expression',
          context: { ...contextFor({ expression: body.expression }, context), ...(body.event === undefined ? {} : { event: body.event }) },
        }
      : { kind: 'render' as const, params, context: contextFor({ params }, context) };
  let preview: ExpressionPreview;
  try {
    // Someone waits for the answer: a preview past its organisation's share says so within two seconds.
    const outcome = await sandboxOf(deps).evaluate(operatorId, task, { waitMs: PREVIEW_WAIT_MS });
    if (outcome.ok) {
      const value = body.kind === 'condition' ? outcome.value : (outcome.value as { expression?: unknown }).expression;
      preview = { ok: true, value: value ?? null };
    } else {
      preview = { ok: false, code: outcome.code, message: outcome.message.replace(/\bparams\.expression\b/g, 'expression') };
    }
  } catch (error) {
    if (!(error instanceof SandboxUnavailableError)) throw error;
    deps.logger.error({ err: error }, 'expression preview: sandbox unavailable');
    throw new AppError(503, 'SERVICE_UNAVAILABLE', 'Expressions cannot be evaluated right now; retry shortly');
  }
  ctx.body = { success: true, data: preview };
});
