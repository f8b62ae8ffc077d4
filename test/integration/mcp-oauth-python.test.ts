import { spawn } from 'node:child_process';
import path from 'node:path';
import { createInterface } from 'node:readline';
import type { TestApp } from '../helpers/app';
import { http } from '../helpers/http';
import { signupOperator, type TestOperator } from '../helpers/identity';
import { createWorkflow, toolAutomation } from '../helpers/mcp';
import { startOAuthApp } from '../helpers/mcpOAuth';
import { ensurePythonMcp, hasPython, PYTHON_MCP_VERSION } from '../helpers/pythonMcp';

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

  it('meets the 401, registers, authorizes with PKCE (iss checked), lists and calls every tool, refreshes, and is refused once disconnected', async () => {
    const script = path.join(__dirname, '../helpers/mcp_python_oauth_client.py');
    const child = spawn('python3', [script, `${app.url}/mcp-server`, owner.accessToken, JSON.stringify({ playerId: 'p-py' })], {
      env: { ...process.env, PYTHONPATH: sitePackages, PYTHONDONTWRITEBYTECODE: '1' },
      stdio: ['pipe', 'pipe', 'inherit'],
    });
    const grants = () => app.deps.db('mcp_oauth_grants').where({ operator_id: owner.operatorId });
    const lines: string[] = [];
    const steps = createInterface({ input: child.stdout! });
    const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
    const timer = setTimeout(() => child.kill('SIGKILL'), 150_000);
    for await (const line of steps) {
      lines.push(line);
      const step = (JSON.parse(line) as { step?: string }).step;
      if (step === 'expire') {
        await app.deps
          .db('mcp_oauth_tokens')
          .where({ kind: 'access' })
          .whereIn('grant_id', grants().select('id'))
          .update({ expires_at: app.deps.db.raw("now() - interval '1 second'") });
        child.stdin!.write('go\n');
      } else if (step === 'revoke') {
        const live = await grants().whereNull('revoked_at').select('id');
        expect(live).toHaveLength(1);
        const [grant] = live;
        expect((await http(`${app.url}/oauth/hosts/${grant.id}`, { method: 'DELETE', token: owner.accessToken })).status).toBe(204);
        child.stdin!.write('go\n');
      }
    }
    clearTimeout(timer);
    expect(await exited).toBe(0);
    const report = JSON.parse(lines.at(-1) ?? '{}');
    expect(report).toMatchObject({ protocolVersion: '2026-07-28', tokenPrefix: 'mcpat_', clientId: expect.stringMatching(/^mcpc_/), tools: [toolName] });
    expect(report.calls[toolName].isError).toBe(false);
    expect(report.afterRefresh).toEqual({ isError: false, reauthorized: false, rotated: true });
    expect(report).toMatchObject({ askedAgain: true });
    expect(report.afterRevoke).not.toBe('answered');
  }, 180_000);
});
