import { validateAutomationBody } from '../../core/automations/definition';
import { ACTION_OUTPUT_SCHEMAS, runOutputSchema } from '../../core/automations/runOutput';
import { isWholeExpression, NODE_MODULES } from '../../core/automations/nodes';
import { BRANCH_OF, branchTaken } from '../../core/automations/nodes/branches';
import { ACTION_TYPES, NODE_TYPES, isAction, type AutomationNode } from '../../core/automations/types';
import { toolAnnotations } from '../../core/mcpToolAnnotations';

const start = { id: 'start', type: 'trigger.manual', params: {} };
const wait = (params: Record<string, unknown>) => ({ id: 'wait', type: 'action.wait_for_event', params });
const body = (nodes: unknown[], edges: unknown[]) => ({ name: 'Journey', nodes, edges });

describe('node modules: one per node type', () => {
  it('every node type has a module; actions declare an output schema and an effect', () => {
    expect(Object.keys(NODE_MODULES).sort()).toEqual([...NODE_TYPES].sort());
    for (const type of ACTION_TYPES) {
      expect(NODE_MODULES[type].group).toBe('action');
      expect(ACTION_OUTPUT_SCHEMAS[type]).toEqual(NODE_MODULES[type].output);
      expect(typeof NODE_MODULES[type].effect).toBe('function');
    }
    for (const type of NODE_TYPES) if (!isAction(type)) expect(NODE_MODULES[type].group).not.toBe('action');
  });

  it("a type's branch rule (read by workflow code) exists exactly when its edges may branch", () => {
    for (const type of NODE_TYPES) expect([type, BRANCH_OF[type] !== null]).toEqual([type, NODE_MODULES[type].branches !== 'none']);
    expect(branchTaken('condition', { result: true })).toBe(true);
    expect(branchTaken('action.wait_for_event', { happened: 'event', event: {} })).toBe(true);
    expect(branchTaken('action.wait_for_event', { happened: 'timeout' })).toBe(false);
    expect(branchTaken('action.delay', { waitedSeconds: 1 })).toBeUndefined();
  });

  it('whole-expression params are the conditions and filters', () => {
    expect(isWholeExpression('condition', 'expression')).toBe(true);
    expect(isWholeExpression('trigger.event', 'filter')).toBe(true);
    expect(isWholeExpression('action.wait_for_event', 'filter')).toBe(true);
    expect(isWholeExpression('action.wait_for_event', 'externalId')).toBe(false);
    expect(isWholeExpression('action.send_email', 'text')).toBe(false);
  });
});

describe('action.wait_for_event in a definition', () => {
  it('takes event, filter, externalId and timeoutSeconds; edges leaving it may carry when or not', () => {
    const result = validateAutomationBody(
      body(
        [
          start,
          wait({ event: 'entity_event.transaction', filter: 'event.data.type = "deposit"', externalId: '{{ trigger.playerId }}', timeoutSeconds: 60 }),
          { id: 'yes', type: 'action.delay', params: { seconds: 1 } },
          { id: 'no', type: 'action.delay', params: { seconds: 1 } },
          { id: 'always', type: 'action.delay', params: { seconds: 1 } },
        ],
        [
          { from: 'start', to: 'wait' },
          { from: 'wait', to: 'yes', when: true },
          { from: 'wait', to: 'no', when: false },
          { from: 'wait', to: 'always' },
        ],
      ),
    );
    expect(result.ok).toBe(true);
  });

  it('names each bad param and a when that is not a boolean', () => {
    const result = validateAutomationBody(
      body(
        [
          start,
          wait({ event: 'Not An Event', filter: 'event.data.type =', timeoutSeconds: 2_592_001, extra: 1 }),
          { id: 'next', type: 'action.delay', params: { seconds: 1 } },
        ],
        [
          { from: 'start', to: 'wait' },
          { from: 'wait', to: 'next', when: 'yes' },
        ],
      ),
    );
    expect(result.ok).toBe(false);
    const fields = !result.ok ? result.details.map((problem) => problem.field) : [];
    expect(fields).toEqual(['nodes[1].params.extra', 'nodes[1].params.event', 'nodes[1].params.filter', 'nodes[1].params.timeoutSeconds', 'edges[1].when']);
    expect(validateAutomationBody(body([start, wait({ event: 'entity_event.transaction' })], [{ from: 'start', to: 'wait' }]))).toEqual({
      ok: false,
      details: [{ field: 'nodes[1].params.timeoutSeconds', message: 'is required' }],
    });
  });

  it('reads and touches nothing for MCP, and declares its output', () => {
    const def = {
      nodes: [start, wait({ event: 'entity_event.transaction', timeoutSeconds: 60 })] as AutomationNode[],
      edges: [{ from: 'start', to: 'wait' }],
    };
    expect(toolAnnotations(def, 'start')).toEqual({ readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false });
    expect(runOutputSchema(def, 'start')).toEqual(ACTION_OUTPUT_SCHEMAS['action.wait_for_event']);
  });
});
