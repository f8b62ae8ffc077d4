import type { AppDeps } from '../deps';
import type { Principal } from '../middleware/authenticate';
import type { Area } from '../endpoint';
import { CodedError, jsonContent } from '../openapi/registry';
import { ok } from '../openapi/responses';
import * as examples from './examples';
import { ExpressionPreviewRecord, previewExpressionHandler } from './expressionPreview';

/**
 * Declares `POST /expressions/preview` on the automations area (`/workflows-api`): the editor's live preview of a
 * condition or a template. Anyone of the operator may preview (it changes nothing); the `preview` guard is its own
 * rate class, `expressions:preview`.
 */
export function declareExpressionPreview(area: Pick<Area<AppDeps, 'preview', Principal>, 'endpoint'>): void {
  area.endpoint({
    method: 'post',
    path: '/expressions/preview',
    summary: 'Evaluate a condition or template against a sample payload or a run, as a run would',
    description:
      "Evaluated in the expression sandbox within the organisation's expression budget (docs/workflows.md \"Expressions\"). `sample` is the trigger payload; `runId` evaluates against that run's trigger payload and its steps' outputs. The expression's own failure is an answer (`ok: false` with the code a run would fail with), not an error. Rate class expressions:preview (RATE_LIMIT_EXPRESSION_PREVIEW a minute per organisation).",
    guards: ['preview'],
    request: { body: { description: 'The expression and what to evaluate it against', example: examples.expressionPreviewBody } },
    responses: {
      200: ok(ExpressionPreviewRecord, 'The value, or why there is none (`code`: EXPRESSION_ERROR, EXPRESSION_TIMEOUT, …)', examples.expressionPreview),
      400: jsonContent(CodedError, 'VALIDATION_FAILED: `details` names the field'),
      401: jsonContent(CodedError, 'UNAUTHORIZED: missing, invalid or revoked credentials'),
      404: jsonContent(CodedError, "RUN_NOT_FOUND (also for another operator's run)"),
      429: jsonContent(CodedError, 'RATE_LIMITED (expressions:preview), with Retry-After'),
      503: jsonContent(CodedError, 'SERVICE_UNAVAILABLE: the expression sandbox cannot take work right now'),
    },
    ...previewExpressionHandler,
  });
}
