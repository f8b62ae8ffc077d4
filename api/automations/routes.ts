import { z } from 'zod';
import type { AppDeps } from '../deps';
import { automations } from './area';
import { CodedError, jsonContent } from '../openapi/registry';
import { ok, page } from '../openapi/responses';
import { createAutomationHandler, deleteAutomationHandler, getAutomationHandler, listAutomationsHandler, updateAutomationHandler } from './definitions';
import { declareCompliance } from './complianceRoutes';
import * as examples from './examples';
import { declareExpressionPreview } from './expressionPreviewRoutes';
import { declareBacktests } from './backtestRoutes';
import { declareReruns } from './rerunRoutes';
import { approvalHandler, cancelRunHandler, getRunHandler, listRunsHandler, testAutomationHandler, usageHandler } from './runs';
import { declareRunsExplorer } from './runsExplorer';
import { declareRunValues } from './runValues';
import { declareTriggerSkips } from './triggerSkipRoutes';
import { declareVersions } from './versionRoutes';
import { AutomationBodySchema, AutomationRecord, RunListItem, RunRecord, UsageRecord } from './schema';

const auth = {
  401: jsonContent(CodedError, 'UNAUTHORIZED: missing, invalid or revoked credentials'),
};
const writes = { ...auth, 403: jsonContent(CodedError, 'FORBIDDEN: writes need an API key or the Owner or an Admin') };
const invalid = jsonContent(CodedError, 'VALIDATION_FAILED: `details` names every problem (field path and message)');
const notFound = jsonContent(CodedError, "WORKFLOW_NOT_FOUND (also for another operator's workflow)");
const runNotFound = jsonContent(CodedError, "RUN_NOT_FOUND (also for another operator's run)");

automations.endpoint({
  method: 'post',
  path: '/workflows',
  summary: 'Create a workflow (validated definition; schedules and webhooks take effect at once)',
  guards: ['manager'],
  request: { body: { schema: AutomationBodySchema, description: 'The definition', example: examples.automationBody } },
  responses: { 201: ok(AutomationRecord, 'Created, version 1', examples.workflow), 400: invalid, ...writes },
  ...createAutomationHandler,
});
automations.endpoint({
  method: 'get',
  path: '/workflows',
  summary: "List the operator's workflows, newest first",
  responses: { 200: page(AutomationRecord, 'A page and the total count', examples.automationList), 400: invalid, ...auth },
  ...listAutomationsHandler,
});
automations.endpoint({
  method: 'get',
  path: '/workflows/:id',
  summary: 'Get a workflow',
  responses: { 200: ok(AutomationRecord, 'The workflow', examples.workflow), 400: invalid, ...auth, 404: notFound },
  ...getAutomationHandler,
});
automations.endpoint({
  method: 'put',
  path: '/workflows/:id',
  summary: 'Replace a definition (version + 1; triggers follow)',
  guards: ['manager'],
  request: {
    body: {
      schema: AutomationBodySchema,
      description: 'The whole definition; a webhook node without `secret` keeps its secret, `null` removes it',
      example: examples.automationBody,
    },
  },
  responses: { 200: ok(AutomationRecord, 'Updated', examples.automationUpdated), 400: invalid, ...writes, 404: notFound },
  ...updateAutomationHandler,
});
automations.endpoint({
  method: 'delete',
  path: '/workflows/:id',
  summary: 'Delete a workflow (schedules and webhooks stop; runs stay readable)',
  guards: ['manager'],
  responses: { 200: ok(z.object({ id: z.string(), deleted: z.literal(true) }), 'Deleted', examples.automationDeleted), 400: invalid, ...writes, 404: notFound },
  ...deleteAutomationHandler,
});
automations.endpoint({
  method: 'post',
  path: '/workflows/:id/test',
  summary: 'Run now, live (real side effects), with the body as the trigger payload',
  description: 'Rate class runs:start (RATE_LIMIT_RUNS a minute per organisation, shared with its webhooks).',
  guards: ['manager', 'runs'],
  request: { body: { schema: z.record(z.string(), z.unknown()), description: 'The trigger payload', example: examples.testPayload } },
  responses: {
    200: ok(RunRecord, "The finished run, completed or failed (error.code: MISSING_TRIGGER_FIELD, QUOTA_EXCEEDED or the failed node's code)", examples.run),
    202: ok(RunRecord, 'Still running after WORKFLOW_TEST_WAIT_MS', examples.runStillRunning),
    400: invalid,
    ...writes,
    404: notFound,
    429: jsonContent(CodedError, 'RATE_LIMITED (runs:start), with Retry-After'),
  },
  ...testAutomationHandler,
});
automations.endpoint({
  method: 'get',
  path: '/workflows/:id/runs',
  summary: "A workflow's runs, newest first",
  responses: {
    200: page(RunListItem, 'A page and the total count; each run without its payload and output', examples.runList),
    400: invalid,
    ...auth,
    404: notFound,
  },
  ...listRunsHandler,
});
automations.endpoint({
  method: 'get',
  path: '/runs/:runId',
  summary: 'Get a run with every node outcome',
  responses: { 200: ok(RunRecord, 'The run', examples.run), 400: invalid, ...auth, 404: runNotFound },
  ...getRunHandler,
});
automations.endpoint({
  method: 'post',
  path: '/runs/:runId/cancel',
  summary: 'Cancel a running run, whatever started it (an agent’s MCP task too)',
  description:
    'Cancels the run’s Temporal workflow: it stops before its next node (a running delay is cut short, an action already sent finishes) and closes `cancelled`. A run an agent started as an MCP task has its task marked cancelled: `tasks/get` says `cancelled` at once.',
  guards: ['manager'],
  responses: {
    202: ok(RunRecord, 'Cancellation requested: the run as it stands (usually still `running`; poll GET /runs/{runId})', examples.runCancelRequested),
    400: invalid,
    ...writes,
    404: runNotFound,
    409: jsonContent(CodedError, 'RUN_NOT_RUNNING: the run has already ended (completed, failed or cancelled), or its workflow closed without recording it'),
  },
  ...cancelRunHandler,
});
automations.endpoint({
  method: 'post',
  path: '/runs/:runId/approval',
  summary: 'Approve or refuse the approval step a run waits in',
  description:
    'Answers the `action.approval` the run waits in (its `awaitingInput`): the step completes with `{ approved, answeredBy, comment, timedOut: false }` and the run goes on by its edges. `answeredBy` is `member:<id>` or `key:<id>`.',
  guards: ['manager'],
  request: { body: { description: 'The answer', example: examples.approvalBody } },
  responses: {
    200: ok(RunRecord, 'Answered: the run as it stands (still running; poll GET /runs/{runId})', examples.runCancelRequested),
    400: invalid,
    ...writes,
    404: runNotFound,
    409: jsonContent(CodedError, 'RUN_NOT_AWAITING_INPUT: the run waits for no approval (ended, answered already, timed out)'),
  },
  ...approvalHandler,
});
automations.endpoint({
  method: 'get',
  path: '/usage',
  summary: "This month's Actions and AI Actions against the quota",
  responses: { 200: ok(UsageRecord, 'Usage', examples.usage), ...auth },
  ...usageHandler,
});

declareExpressionPreview(automations);
declareRunsExplorer(automations);
declareRunValues(automations);
declareVersions(automations);
declareTriggerSkips(automations);
declareReruns(automations);
declareBacktests(automations);
declareCompliance(automations);

export const createAutomationsRouter = (deps: AppDeps) => automations.router(deps);
