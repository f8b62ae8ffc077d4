import { startTestApp, type TestApp } from '../helpers/app';
import { createFaultyDatabase, type FaultyDatabase } from '../helpers/faultyDatabase';
import { http } from '../helpers/http';
import { createWorkflow, mcpOperator, mcpPost, rpc, toolAutomation, type McpOperator } from '../helpers/mcp';

/**
 * `-32603` with HTTP 500 (spec 7.6, DESIGN.md), triggered from outside: the app runs on a database of its own
 * whose workflows table is then taken away, so listing and calling tools fail for real.
 */
let faulty: FaultyDatabase;
let app: TestApp;
let operator: McpOperator;
let workflowId: string;
const logLines: string[] = [];

beforeAll(async () => {
  faulty = await createFaultyDatabase();
  app = await startTestApp({ DATABASE_URL: faulty.url }, { logLines });
  operator = await mcpOperator(app.url);
  workflowId = (await createWorkflow(app.url, operator.accessToken, toolAutomation('Doomed tool', []))).id;
  await faulty.db.raw('ALTER TABLE automations RENAME TO automations_unavailable');
});

afterAll(async () => {
  await app.close();
  await faulty.drop();
});

describe('database errors on the MCP server', () => {
  it.each([
    ['tools/list', undefined],
    ['tools/call', { name: 'doomed_tool', arguments: { playerId: 'p-1' } }],
  ])('%s: 500 with -32603, the request id and nothing internal in the body', async (method, params) => {
    const request = rpc(method, params);
    const response = await mcpPost(app.url, operator.key, request);
    expect(response.status).toBe(500);
    expect(response.body).toEqual({ jsonrpc: '2.0', id: request.id, error: { code: -32603, message: 'Internal error' } });
    expect(response.text).not.toMatch(/workflows|select|stack|at /i);
  });

  it('PATCH /api-keys/:id/mcp with an allowlist: 500 Failed to update key', async () => {
    const response = await http(`${app.url}/api-keys/${operator.keyId}/mcp`, {
      method: 'PATCH',
      token: operator.accessToken,
      body: { mcp_workflow_allowlist: [workflowId] },
    });
    expect([response.status, response.body]).toEqual([500, { success: false, error: 'Failed to update key' }]);
  });

  it('logs the cause server-side without the key', () => {
    const errors = logLines.map((line) => JSON.parse(line)).filter((entry) => entry.level >= 50);
    expect(errors.some((entry) => entry.msg === 'MCP request failed')).toBe(true);
    expect(logLines.join('\n')).not.toContain(operator.key);
  });
});
