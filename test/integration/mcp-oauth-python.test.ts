import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import type { TestApp } from '../helpers/app';
import { signupOperator, type TestOperator } from '../helpers/identity';
import { createWorkflow, toolAutomation } from '../helpers/mcp';
import { startOAuthApp } from '../helpers/mcpOAuth';
import { ensurePythonMcp, hasPython, PYTHON_MCP_VERSION } from '../helpers/pythonMcp';

const run = promisify(execFile);
let app: TestApp;
let owner: TestOperator;
let sitePackages: string;
let toolName: string;

// Without Python 3.10+ there is no Python client to run: the file is skipped (pip itself failing fails it).
const describeWithPython = hasPython() ? describe : describe.skip;

describeWithPython(`the official Python client (PyPI mcp ${PYTHON_MCP_VERSION}) with its OAuth support`, () => {
  beforeAll(async () => {
    sitePackages = await ensurePythonMcp();
    app = await startOAuthApp();
    owner = await signupOperator(app.url, 'Python OAuth Casino');
    toolName = (await createWorkflow(app.url, owner.accessToken, toolAutomation('Py OAuth lookup', []))).mcp_tool_name;
  }, 360_000);
  afterAll(async () => {
    await app?.close();
  });

  it('meets the 401, registers, authorizes with PKCE (iss checked), then lists and calls every tool it is shown', async () => {
    const script = path.join(__dirname, '../helpers/mcp_python_oauth_client.py');
    const { stdout } = await run('python3', [script, `${app.url}/mcp-server`, owner.accessToken, JSON.stringify({ playerId: 'p-py' })], {
      env: { ...process.env, PYTHONPATH: sitePackages, PYTHONDONTWRITEBYTECODE: '1' },
      timeout: 120_000,
    });
    const report = JSON.parse(stdout.trim().split('\n').at(-1) ?? '{}');
    expect(report).toMatchObject({ protocolVersion: '2026-07-28', tokenPrefix: 'mcpat_', clientId: expect.stringMatching(/^mcpc_/), tools: [toolName] });
    expect(report.calls[toolName].isError).toBe(false);
  }, 180_000);
});
