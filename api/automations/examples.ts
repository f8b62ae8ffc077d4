/** Examples of the workflows document (automations/routes.ts); test/integration/openapi-examples.test.ts validates them. */
const automationId = 'wf_7d3e9a1c5b2f4e8a0c6d1b9f3e7a5c2d';
const runId = 'run_8a2c6e0f4b9d3e7a1c5f9b3d7e1a5c0f';

/** The "Big deposit alert" of docs/workflows.md and the dashboard's recipes: an event trigger filtered to deposits, a condition, a state write. */
export const automationBody = {
  name: 'Big deposit alert',
  description: 'Flags large deposits',
  active: true,
  mcp_exposed: true,
  nodes: [
    { id: 'start', type: 'trigger.event', params: { event: 'entity_event.transaction', filter: 'trigger.data.type = "deposit"' } },
    { id: 'big', type: 'condition', params: { expression: 'trigger.data.amount > 100000' } },
    { id: 'flag', type: 'action.set_state', params: { externalId: '{{ trigger.entity.externalId }}', key: 'risk_score', value: 80 } },
  ],
  edges: [
    { from: 'start', to: 'big' },
    { from: 'big', to: 'flag', when: true },
  ],
};

const automationRecord = {
  id: automationId,
  ...automationBody,
  mcp_tool_name: 'big_deposit_alert',
  version: 1,
  layout: { start: { x: 40, y: 40 }, big: { x: 340, y: 40 }, flag: { x: 640, y: 40 } },
  created_at: '2026-03-14T11:20:05.902Z',
  updated_at: '2026-03-14T11:20:05.902Z',
};

export const workflow = { success: true, data: automationRecord };
export const automationUpdated = { success: true, data: { ...automationRecord, version: 2, updated_at: '2026-03-15T09:12:44.310Z' } };
export const automationList = { success: true, data: [automationRecord], count: 1 };
export const automationDeleted = { success: true, data: { id: automationId, deleted: true } };

export const testPayload = { data: { type: 'deposit', amount: 250000, currency: 'EUR' }, entity: { externalId: 'p-42' } };

const runRecord = {
  id: runId,
  workflowId: automationId,
  workflowVersion: 1,
  source: 'manual',
  status: 'completed',
  temporalWorkflowId: `automation-manual-${runId}`,
  input: testPayload,
  output: { externalId: 'p-42', key: 'risk_score', value: 80 },
  nodes: [
    { id: 'start', status: 'completed', output: testPayload, durationMs: 0 },
    { id: 'big', status: 'completed', output: { result: true }, durationMs: 3 },
    { id: 'flag', status: 'completed', output: { externalId: 'p-42', key: 'risk_score', value: 80 }, durationMs: 41 },
  ],
  startedAt: '2026-03-15T09:30:00.118Z',
  completedAt: '2026-03-15T09:30:00.301Z',
  durationMs: 183,
};

export const run = { success: true, data: runRecord };
export const runStillRunning = {
  success: true,
  data: { ...runRecord, status: 'running', output: null, nodes: runRecord.nodes.slice(0, 2), completedAt: null, durationMs: null },
};
export const runList = { success: true, data: [runRecord], count: 1 };
/** A run an agent started as an MCP task, just after `POST /runs/:runId/cancel`: still closing, its task already cancelled. */
export const runCancelRequested = {
  success: true,
  data: {
    ...runRecord,
    source: 'mcp',
    status: 'running',
    temporalWorkflowId: `automation-mcp-${runId}`,
    output: null,
    nodes: runRecord.nodes.slice(0, 2),
    completedAt: null,
    durationMs: null,
    task: { id: 'task_5e1b9d3f7a2c6e0b4d8f1a5c9e3b7d2f', status: 'cancelled' },
  },
};

export const usage = {
  success: true,
  data: { month: '2026-03', actions: { used: 1240, limit: 10000, remaining: 8760 }, aiActions: { used: 12, limit: 1000, remaining: 988 } },
};

export const approvalBody = { approved: true, comment: 'Bonus within policy' };
