import { startTestApp, type TestApp } from '../helpers/app';
import { createWorkflow, mcpOperator, toolAutomation, type McpOperator } from '../helpers/mcp';
import { startProvider, type TestProvider } from '../helpers/providerServer';
import { ensurePythonMcp, hasPython, PYTHON_MCP_VERSION, runPythonClient } from '../helpers/pythonMcp';

/** A run that can wait 4 s or more is a task: the official Python client declares no tasks, so it is shown none. */
const SETTINGS = { MCP_CALL_WAIT_MS: '4000' };

let app: TestApp;
let provider: TestProvider;
let alice: McpOperator;
let sitePackages: string;
const tools = { quick: '', delayed: '', approved: '' };

// Without Python 3.10+ there is no Python client to run: the file is skipped (pip itself failing fails it).
const describeWithPython = hasPython() ? describe : describe.skip;

describeWithPython(`the official Python client (PyPI mcp ${PYTHON_MCP_VERSION}) lists and calls every tool it is shown`, () => {
  beforeAll(async () => {
    sitePackages = await ensurePythonMcp();
    app = await startTestApp(SETTINGS);
    provider = await startProvider((request) => ({ status: 200, body: { path: request.path } }));
    alice = await mcpOperator(app.url);
    const post = { id: 'ask', type: 'action.http_request', params: { method: 'POST', url: `${provider.url}/python` } };
    const create = async (name: string, actions: Parameters<typeof toolAutomation>[1]) =>
      (await createWorkflow(app.url, alice.accessToken, toolAutomation(name, actions))).mcp_tool_name;
    tools.quick = await create('Py quick', [post]);
    tools.delayed = await create('Py delayed', [{ id: 'wait', type: 'action.delay', params: { seconds: 30 } }, post]);
    const approval = { id: 'approve', type: 'action.approval', params: { message: 'Go?', timeoutSeconds: 600 } };
    tools.approved = await create('Py approved', [approval, post]);
  }, 360_000);
  afterAll(async () => {
    await Promise.all([app?.close(), provider?.close()]);
  });

  it.each([
    ['auto', '2026-07-28'],
    ['legacy', '2025-11-25'],
  ] as const)('mode %s (%s): only the synchronous tool is listed, and its call succeeds', async (mode, protocolVersion) => {
    const report = await runPythonClient(sitePackages, `${app.url}/mcp-server`, alice.key, mode, { playerId: 'p-py' });
    expect(report.protocolVersion).toBe(protocolVersion);
    expect(report.tools).toEqual([tools.quick]);
    expect(report.calls[tools.quick]?.isError).toBe(false);
    expect(JSON.parse(report.calls[tools.quick]?.text ?? 'null')).toMatchObject({ status: 200, body: { path: '/python' } });
  });
});
