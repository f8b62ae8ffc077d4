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
  run_control: null,
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
    { id: 'big', status: 'completed', input: { expression: 'trigger.data.amount > 100000' }, output: { result: true }, branch: true, durationMs: 3 },
    {
      id: 'flag',
      status: 'completed',
      input: { externalId: 'p-42', key: 'risk_score', value: 80 },
      output: { externalId: 'p-42', key: 'risk_score', value: 80 },
      durationMs: 41,
    },
  ],
  startedAt: '2026-03-15T09:30:00.118Z',
  completedAt: '2026-03-15T09:30:00.301Z',
  durationMs: 183,
  rerunOf: null,
  rerunFromNodeId: null,
  replayId: null,
};

export const run = { success: true, data: runRecord };
export const runStillRunning = {
  success: true,
  data: { ...runRecord, status: 'running', output: null, nodes: runRecord.nodes.slice(0, 2), completedAt: null, durationMs: null },
};
const { input: _input, output: _output, ...listed } = runRecord;
/** A workflow's run list: each run without its payload, its output and its steps' values (`GET /runs/{runId}` has them). */
export const runList = {
  success: true,
  data: [{ ...listed, nodes: runRecord.nodes.map(({ id, status, durationMs }) => ({ id, status, durationMs })) }],
  count: 1,
};
/** `GET /runs` (the runs explorer): summaries only, and the cursor of the next page. */
export const runsExplorerPage = {
  success: true,
  data: [
    {
      id: runId,
      workflowId: automationId,
      workflowName: 'Big deposit alert',
      workflowVersion: 1,
      source: 'event',
      status: 'failed',
      error: { code: 'PROVIDER_ERROR', nodeId: 'flag' },
      startedAt: '2026-03-15T09:30:00.118Z',
      completedAt: '2026-03-15T09:30:02.301Z',
      durationMs: 2183,
      subjectExternalIds: ['p-42'],
      temporalWorkflowId: `automation-event-${runId}`,
      rerunOf: null,
    },
  ],
  count: 214,
  nextCursor: 'MjAyNi0wMy0xNVQwOTozMDowMC4xMTgzMDJafHJ1bl84YTJjNmUwZjRiOWQzZTdhMWM1ZjliM2Q3ZTFhNWMwZg',
};
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

export const expressionPreviewBody = {
  expression: 'trigger.data.amount > 100000',
  kind: 'condition',
  sample: { event: 'entity_event.transaction', entity: { externalId: 'p-42' }, data: { type: 'deposit', amount: 250000, currency: 'EUR' } },
};
export const expressionPreview = { success: true, data: { ok: true, value: true } };

/** A workflow's versions (automations/versionRoutes.ts): version 3 restored version 1 with the dashboard. */
const versionDefinition = { ...automationBody, mcp_tool_name: 'big_deposit_alert' };
export const versionList = {
  success: true,
  data: [
    {
      version: 3,
      name: 'Big deposit alert',
      description: 'Flags large deposits',
      node_count: 3,
      edge_count: 2,
      created_at: '2026-03-16T08:01:12.450Z',
      created_by: 'member:7c1e4b2a-9d3f-4e8a-b6c5-2f1a0d9e8b7c',
      saved_by: 'ana@goldenspins.example',
    },
    {
      version: 2,
      name: 'Big deposit alert',
      description: 'Flags large deposits',
      node_count: 3,
      edge_count: 2,
      created_at: '2026-03-15T09:12:44.310Z',
      created_by: 'key:key_3b8d1f6a2c9e4d7b',
      saved_by: 'API key backend',
    },
    {
      version: 1,
      name: 'Big deposit alert',
      description: 'Flags large deposits',
      node_count: 3,
      edge_count: 2,
      created_at: '2026-03-14T11:20:05.902Z',
      created_by: 'key:key_3b8d1f6a2c9e4d7b',
      saved_by: 'API key backend',
    },
  ],
  count: 3,
};
export const version = {
  success: true,
  data: {
    workflow_id: automationId,
    version: 1,
    created_at: '2026-03-14T11:20:05.902Z',
    created_by: 'key:key_3b8d1f6a2c9e4d7b',
    definition: versionDefinition,
  },
};
export const versionDiff = {
  success: true,
  data: {
    from: 1,
    to: 2,
    fields: [{ field: 'description', before: 'Flags large deposits', after: 'Flags deposits over 2,000 EUR' }],
    nodes: {
      added: [{ id: 'mail', type: 'action.send_email', params: { to: 'risk@acme.test', subject: 'Big deposit', text: '{{ trigger.entity.externalId }}' } }],
      removed: [],
      changed: [{ id: 'big', params: [{ path: 'expression', before: 'trigger.data.amount > 100000', after: 'trigger.data.amount > 200000' }] }],
    },
    edges: { added: [{ from: 'big', to: 'mail', when: true }], removed: [] },
  },
};
export const rolledBack = { success: true, data: { ...automationRecord, version: 3, updated_at: '2026-03-16T08:01:12.450Z' } };

export const rerunBody = { fromNodeId: 'flag', version: 'run' };
export const rerunStarted = {
  success: true,
  data: { runId: 'run_1f5b9d3e7a0c4e8b2d6f0a4c8e2b6d1f', rerunOf: runId, fromNodeId: 'flag', workflowVersion: 1 },
};

const replayId = 'rpl_3c7e1a5f9b2d6e0a4c8f2b6d0e4a8c1f';
export const replayBody = { from: '2026-03-15T09:00:00Z', to: '2026-03-15T10:00:00Z', version: 'run', ratePerSecond: 5 };
const replayRecord = {
  id: replayId,
  workflowId: automationId,
  status: 'running',
  from: '2026-03-15T09:00:00.000Z',
  to: '2026-03-15T10:00:00.000Z',
  version: 'run',
  total: 214,
  started: 0,
  succeeded: 0,
  failed: 0,
  created_at: '2026-03-15T11:02:17.410Z',
  completed_at: null,
  errors: [] as { code: string; count: number; runIds: string[] }[],
};
const replayErrors = [
  { code: 'HTTP_503', count: 7, runIds: ['run_5a1c9e3b7d0f4a8c2e6b0d4f8a2c6e1b'] },
  { code: 'TIMEOUT', count: 2, runIds: ['run_8e2a6c0f4b8d2a6e0c4f8b2d6a0e4c9f'] },
];
export const replayPreview = {
  success: true,
  data: {
    total: 214,
    maxRuns: 10_000,
    byCode: [
      { code: 'HTTP_503', count: 201 },
      { code: 'TIMEOUT', count: 13 },
    ],
    sample: [{ runId, rerunOf: null, startedAt: '2026-03-15T09:00:04.118Z', errorCode: 'HTTP_503', failedNodeId: 'flag' }],
  },
};
export const replayStarted = { success: true, data: replayRecord };
export const replay = { success: true, data: { ...replayRecord, started: 120, succeeded: 104, failed: 9, errors: replayErrors } };
export const replayCancelled = {
  success: true,
  data: { ...replayRecord, status: 'cancelled', started: 120, succeeded: 104, failed: 9, completed_at: '2026-03-15T11:03:01.022Z', errors: replayErrors },
};

export const complianceSettingsBody = {
  rules: { consent: true, harmIndicators: true, depositLimit: true },
  explicitConsent: false,
  quietHours: [{ jurisdiction: 'GB', from: 22, to: 8 }],
  harm: { depositVelocity: { deposits: 5, amount: 100000, windowMinutes: 60 }, depositAfterReversedWithdrawal: { windowMinutes: 30 }, atRiskDays: 30 },
};
export const complianceSettings = {
  success: true,
  data: {
    rules: { exclusion: true, consent: true, harmIndicators: true, depositLimit: true },
    explicitConsent: false,
    quietHours: [{ jurisdiction: 'GB', from: 22, to: 8 }],
    depositLimitHours: 24,
    harm: { depositVelocity: { deposits: 5, amount: 100000, windowMinutes: 60 }, depositAfterReversedWithdrawal: { windowMinutes: 30 }, atRiskDays: 30 },
  },
};
const evidenceRow = {
  recorded_at: '2026-03-15T09:12:44.318Z',
  workflow_id: automationId,
  workflow_version: 3,
  run_id: runId,
  node_id: 'email',
  action_type: 'action.send_email',
  purpose: 'marketing',
  rule: 'self_excluded',
  player_id: 'p-1',
  state_hash: '5d41402abc4b2a76b9719d911017c592e0f1c8a2b7c9d4e6f8a0b1c2d3e4f5a6',
};
export const evidenceExport = {
  success: true,
  data: [
    evidenceRow,
    { ...evidenceRow, recorded_at: '2026-03-15T09:13:02.004Z', run_id: 'run_8a2c6e0f4b9d3a7e1c5f9b3d7a1e5c9f', player_id: 'p-2', rule: 'allowed' },
  ],
  count: 2,
  truncated: false,
};

const backtestId = 'bkt_5e1a9c3f7b2d6e0a4c8f1b5d9e3a7c2f';
export const backtestBody = {
  from: '2026-03-01T00:00:00Z',
  to: '2026-03-15T00:00:00Z',
  version: 2,
  sampleOutputs: { kyc: { status: 200, data: { verified: true } } },
};
const backtestRecord = {
  id: backtestId,
  workflowId: automationId,
  status: 'running',
  version: null,
  baselineVersion: 3,
  from: '2026-03-01T00:00:00.000Z',
  to: '2026-03-15T00:00:00.000Z',
  total: 48210,
  processed: 0,
  result: null,
  error: null,
  created_at: '2026-03-15T11:02:17.410Z',
  completed_at: null,
};
const backtestTally = {
  events: 48210,
  runs: 48210,
  failedRuns: 0,
  undecidableRuns: 0,
  steps: {
    deposit: { completed: 48210, skipped: 0, failed: 0, undecidable: 0 },
    big: { completed: 48210, skipped: 0, failed: 0, undecidable: 0 },
    mail: { completed: 312, skipped: 47898, failed: 0, undecidable: 0 },
  },
  actionsByType: { 'action.send_email': 312 },
  actionsByNode: { mail: 312 },
  consumed: { actions: 312, aiActions: 0 },
  samples: [{ nodeId: 'mail', type: 'action.send_email', playerId: 'p-1', method: 'EMAIL', target: '{{ trigger.data.email }}', template: 'A bonus for p-1' }],
};
export const backtestStarted = { success: true, data: backtestRecord };
export const backtest = {
  success: true,
  data: {
    ...backtestRecord,
    status: 'completed',
    processed: 48210,
    completed_at: '2026-03-15T11:02:41.090Z',
    result: {
      backtested: { version: null, ...backtestTally, conditions: [{ nodeId: 'big', decidedBy: 'evaluated', reads: [] }] },
      baseline: {
        version: 3,
        active: true,
        ...backtestTally,
        steps: { ...backtestTally.steps, mail: { completed: 280, skipped: 47930, failed: 0, undecidable: 0 } },
        actionsByType: { 'action.send_email': 280 },
        actionsByNode: { mail: 280 },
        consumed: { actions: 280, aiActions: 0 },
      },
      players: { affected: { total: 2, ids: ['p-1', 'p-7'] }, newlyAffected: { total: 1, ids: ['p-7'] }, noLongerAffected: { total: 0, ids: [] } },
      actionChanges: [{ nodeId: 'mail', type: 'action.send_email', backtested: 312, active: 280 }],
    },
  },
};
export const backtestCancelled = {
  success: true,
  data: { ...backtestRecord, status: 'cancelled', processed: 12000, completed_at: '2026-03-15T11:02:25.300Z' },
};

export const skippedTriggers = {
  success: true,
  data: [
    {
      id: '4812',
      workflow_version: 3,
      node_id: 'start',
      event_id: 'evt_3f2a9c1d4b5e6f708192a3b4c5d6e7f8',
      event: 'entity_event.transaction',
      reason: 'filter_failed',
      code: 'EXPRESSION_ERROR',
      message: 'Expression "$number(trigger.data.reference) > 1" failed: Unable to cast value to a number: "ref-42"',
      key: null,
      created_at: '2026-03-16T08:01:12.450Z',
    },
    {
      id: '4811',
      workflow_version: 3,
      node_id: 'start',
      event_id: 'evt_9a1b2c3d4e5f60718293a4b5c6d7e8f9',
      event: 'entity_event.transaction',
      reason: 'throttled',
      code: 'THROTTLED',
      message: 'Over the throttle: 2 triggers per 60 s for this key',
      key: 'player-1042',
      created_at: '2026-03-16T08:01:10.112Z',
    },
  ],
};

export const dispatchLag = { success: true, data: { pending: 1250, oldest_seconds: 12.4 } };
