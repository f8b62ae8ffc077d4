import { z } from 'zod';
import { bearerApiKey, bearerSession, CodedError, jsonContent, registry } from '../openapi/registry';
import * as examples from './examples';
import { ListRunsQuery, ListAutomationsQuery, RunIdParams, RunRecord, UsageRecord, AutomationBodySchema, AutomationIdParams, AutomationRecord } from './schema';

const security = [{ [bearerApiKey.name]: [] }, { [bearerSession.name]: [] }];
const ok = (schema: z.ZodType, description: string, example: unknown) => jsonContent(z.object({ success: z.literal(true), data: schema }), description, example);
const page = (schema: z.ZodType, description: string, example: unknown) =>
  jsonContent(z.object({ success: z.literal(true), data: z.array(schema), count: z.number().int() }), description, example);
const auth = {
  401: jsonContent(CodedError, 'UNAUTHORIZED: missing, invalid or revoked credentials'),
};
const writes = { ...auth, 403: jsonContent(CodedError, 'FORBIDDEN: writes need an API key or the Owner or an Admin') };
const invalid = jsonContent(CodedError, 'VALIDATION_FAILED: `details` names every problem (field path and message)');
const notFound = jsonContent(CodedError, 'WORKFLOW_NOT_FOUND (also for another operator\'s workflow)');

const routes: Array<Parameters<typeof registry.registerPath>[0]> = [
  {
    method: 'post', path: '/workflows-api/workflows', summary: 'Create a workflow (validated definition; schedules and webhooks take effect at once)',
    request: { body: jsonContent(AutomationBodySchema, 'The definition', examples.automationBody) },
    responses: { 201: ok(AutomationRecord, 'Created, version 1', examples.workflow), 400: invalid, ...writes },
  },
  {
    method: 'get', path: '/workflows-api/workflows', summary: "List the operator's workflows, newest first", request: { query: ListAutomationsQuery },
    responses: { 200: page(AutomationRecord, 'A page and the total count', examples.automationList), 400: invalid, ...auth },
  },
  {
    method: 'get', path: '/workflows-api/workflows/{id}', summary: 'Get a workflow', request: { params: AutomationIdParams },
    responses: { 200: ok(AutomationRecord, 'The workflow', examples.workflow), 400: invalid, ...auth, 404: notFound },
  },
  {
    method: 'put', path: '/workflows-api/workflows/{id}', summary: 'Replace a definition (version + 1; triggers follow)',
    request: { params: AutomationIdParams, body: jsonContent(AutomationBodySchema, 'The whole definition; a webhook node without `secret` keeps its secret, `null` removes it', examples.automationBody) },
    responses: { 200: ok(AutomationRecord, 'Updated', examples.automationUpdated), 400: invalid, ...writes, 404: notFound },
  },
  {
    method: 'delete', path: '/workflows-api/workflows/{id}', summary: 'Delete a workflow (schedules and webhooks stop; runs stay readable)', request: { params: AutomationIdParams },
    responses: { 200: ok(z.object({ id: z.string(), deleted: z.literal(true) }), 'Deleted', examples.automationDeleted), 400: invalid, ...writes, 404: notFound },
  },
  {
    method: 'post', path: '/workflows-api/workflows/{id}/test', summary: 'Run now, live (real side effects), with the body as the trigger payload',
    request: { params: AutomationIdParams, body: jsonContent(z.record(z.string(), z.unknown()), 'The trigger payload', examples.testPayload) },
    responses: {
      200: ok(RunRecord, 'The finished run, completed or failed (error.code: MISSING_TRIGGER_FIELD, QUOTA_EXCEEDED or the failed node\'s code)', examples.run),
      202: ok(RunRecord, 'Still running after WORKFLOW_TEST_WAIT_MS', examples.runStillRunning),
      400: invalid, ...writes, 404: notFound,
    },
  },
  {
    method: 'get', path: '/workflows-api/workflows/{id}/runs', summary: "A workflow's runs, newest first", request: { params: AutomationIdParams, query: ListRunsQuery },
    responses: { 200: page(RunRecord, 'A page and the total count', examples.runList), 400: invalid, ...auth, 404: notFound },
  },
  {
    method: 'get', path: '/workflows-api/runs/{runId}', summary: 'Get a run with every node outcome', request: { params: RunIdParams },
    responses: { 200: ok(RunRecord, 'The run', examples.run), 400: invalid, ...auth, 404: jsonContent(CodedError, 'RUN_NOT_FOUND') },
  },
  { method: 'get', path: '/workflows-api/usage', summary: "This month's Actions and AI Actions against the quota", responses: { 200: ok(UsageRecord, 'Usage', examples.usage), ...auth } },
];
for (const route of routes) registry.registerPath({ ...route, security });
