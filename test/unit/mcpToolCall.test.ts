import { argumentProblems, toolResultOf, type ToolInputSchema } from '../../core/mcpToolCall';
import type { AutomationRunRecord } from '../../core/automations/types';

const schema: ToolInputSchema = {
  type: 'object',
  properties: { playerId: { type: 'string' }, amount: { type: ['number', 'null'] }, count: { type: 'integer' }, tier: { enum: ['gold', 'silver'] }, free: {} },
  required: ['playerId'],
};

describe('argumentProblems', () => {
  it('accepts matching, extra and missing fields (a missing required field is the run’s MISSING_TRIGGER_FIELD)', () => {
    expect(argumentProblems(schema, { playerId: 'p-1', amount: null, count: 3, tier: 'gold', free: [1], extra: true })).toEqual([]);
    expect(argumentProblems(schema, {})).toEqual([]);
  });

  it('reports a non-object and wrongly typed fields', () => {
    expect(argumentProblems(schema, [])).toEqual(['arguments must be an object']);
    expect(argumentProblems(schema, 'p-1')).toEqual(['arguments must be an object']);
    expect(argumentProblems(schema, { playerId: 7, amount: 'x', count: 1.5, tier: 'bronze' })).toEqual([
      'playerId must be of type string',
      'amount must be of type number or null',
      'count must be of type integer',
      'tier must be one of "gold", "silver"',
    ]);
  });
});

const run = (overrides: Partial<AutomationRunRecord>): AutomationRunRecord => ({
  id: 'run_1',
  workflowId: 'wf_1',
  workflowVersion: 1,
  source: 'mcp',
  status: 'completed',
  input: {},
  output: { ok: true },
  nodes: [],
  startedAt: '2026-01-01T00:00:00.000Z',
  completedAt: '2026-01-01T00:00:00.040Z',
  durationMs: 40,
  rerunOf: null,
  rerunFromNodeId: null,
  replayId: null,
  ...overrides,
});

describe('toolResultOf', () => {
  it('returns a completed run’s output as JSON text', () => {
    expect(toolResultOf(run({}), 55)).toEqual({
      content: [{ type: 'text', text: '{"ok":true}' }],
      isError: false,
      _meta: { execution_id: 'run_1', duration_ms: 40 },
    });
  });

  it('puts a failed run’s code first in the text, with isError', () => {
    const failed = toolResultOf(
      run({ status: 'failed', error: { code: 'MISSING_TRIGGER_FIELD', message: 'Missing required trigger field: playerId' }, durationMs: null }),
      12.4,
    );
    expect(failed).toEqual({
      content: [{ type: 'text', text: 'MISSING_TRIGGER_FIELD: Missing required trigger field: playerId' }],
      isError: true,
      _meta: { execution_id: 'run_1', duration_ms: 12 },
    });
    const node = toolResultOf(run({ status: 'failed', error: { code: 'HTTP_ERROR', message: 'HTTP 500', nodeId: 'call' } }), 1);
    expect(node.content[0]!.text).toBe('HTTP_ERROR: HTTP 500 (node call)');
  });

  it('reports a run still going after the wait as RUN_STILL_RUNNING', () => {
    const result = toolResultOf(run({ status: 'running', durationMs: null, output: null }), 1000);
    expect(result.isError).toBe(true);
    expect(result.content[0]!.text).toMatch(/^RUN_STILL_RUNNING: Run run_1 has not finished yet/);
  });

  it('adds a completed run’s object output as structuredContent only when the tool declares an outputSchema', () => {
    expect(toolResultOf(run({}), 1, true)).toEqual({
      content: [{ type: 'text', text: '{"ok":true}' }],
      structuredContent: { ok: true },
      isError: false,
      _meta: { execution_id: 'run_1', duration_ms: 40 },
    });
    expect(toolResultOf(run({}), 1, false)).not.toHaveProperty('structuredContent');
    expect(toolResultOf(run({ output: [1, 2] }), 1, true)).not.toHaveProperty('structuredContent');
    expect(toolResultOf(run({ status: 'failed', error: { code: 'HTTP_404', message: 'HTTP 404' } }), 1, true)).not.toHaveProperty('structuredContent');
  });

  it('reports a cancelled run as RUN_CANCELLED', () => {
    const result = toolResultOf(
      run({ status: 'cancelled', output: null, error: { code: 'RUN_CANCELLED', message: 'The run was cancelled', nodeId: 'wait' } }),
      1,
      true,
    );
    expect(result).toEqual({
      content: [{ type: 'text', text: 'RUN_CANCELLED: Run run_1 was cancelled before it finished' }],
      isError: true,
      _meta: { execution_id: 'run_1', duration_ms: 40 },
    });
  });

  it('a run whose output the record truncated is RUN_OUTPUT_TOO_LARGE naming where the whole output is, never the marker as structuredContent', () => {
    const marker = { _truncated: true as const, bytes: 4_718_600, preview: '{"data":' };
    const result = toolResultOf(run({ output: marker, nodes: [{ id: 'kyc', status: 'completed', output: marker, durationMs: 3 }], durationMs: 40 }), 1, true);
    expect(result).toEqual({
      content: [
        {
          type: 'text',
          text: "RUN_OUTPUT_TOO_LARGE: The run's output is 4718600 bytes, more than a tool result carries; read it whole with GET /workflows-api/runs/run_1/steps/kyc/output",
        },
      ],
      isError: true,
      _meta: { execution_id: 'run_1', duration_ms: 40 },
    });
  });
});
