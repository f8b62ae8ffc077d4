import { startTestApp, type TestApp } from '../helpers/app';
import { createWorkflow, mcpOperator, toolAutomation, type McpOperator } from '../helpers/mcp';
import { ensureInspector, INSPECTOR_VERSION, runInspectorAnywhere } from '../helpers/inspectorAnywhere';

/** A run that can wait 4 s or more is a task: `delayed` below must run as one. */
const SETTINGS = { MCP_CALL_WAIT_MS: '4000' };

let app: TestApp;
let alice: McpOperator;
let launcher: string;
const tools = { quick: '', delayed: '' };

beforeAll(async () => {
  launcher = await ensureInspector();
  app = await startTestApp(SETTINGS);
  alice = await mcpOperator(app.url);
  const create = async (name: string, actions: Parameters<typeof toolAutomation>[1]) =>
    (await createWorkflow(app.url, alice.accessToken, toolAutomation(name, actions))).mcp_tool_name;
  tools.quick = await create('Anywhere quick', [{ id: 'pause', type: 'action.delay', params: { seconds: 1 } }]);
  tools.delayed = await create('Anywhere delayed', [{ id: 'wait', type: 'action.delay', params: { seconds: 5 } }]);
}, 360_000);
afterAll(async () => {
  await app?.close();
});

/** The README's command: `npx -y @modelcontextprotocol/inspector@<version> --cli <url> --transport http --header … --protocol-era modern`. */
const readmeCommand = (...args: string[]) =>
  runInspectorAnywhere(launcher, [`${app.url}/mcp-server`, '--transport', 'http', '--header', `Authorization: Bearer ${alice.key}`, ...args]);

describe(`the README's MCP Inspector command (${INSPECTOR_VERSION}) run outside the repository`, () => {
  it('lists every tool on 2026-07-28, the task-required one included', async () => {
    const { stdout } = await readmeCommand('--protocol-era', 'modern', '--method', 'tools/list');
    expect((JSON.parse(stdout) as { tools: Array<{ name: string }> }).tools.map((tool) => tool.name).sort()).toEqual(Object.values(tools).sort());
  });

  it('calls the task-required tool: it runs as a task and the CLI prints its completed result', async () => {
    const { stdout } = await readmeCommand('--protocol-era', 'modern', '--method', 'tools/call', '--tool-name', tools.delayed, '--tool-arg', 'playerId=p-any');
    const result = JSON.parse(stdout) as { isError: boolean; resultType: string; _meta: { execution_id: string } };
    expect(result).toMatchObject({ isError: false, resultType: 'complete' });
    expect(result._meta.execution_id).toMatch(/^run_/);
  });

  it('without the modern era (a 2025 session that declares no tasks) it is shown the synchronous tool only', async () => {
    const { stdout } = await readmeCommand('--method', 'tools/list');
    expect((JSON.parse(stdout) as { tools: Array<{ name: string }> }).tools.map((tool) => tool.name)).toEqual([tools.quick]);
  });
});
