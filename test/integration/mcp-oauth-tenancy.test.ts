import type { TestApp } from '../helpers/app';
import { http } from '../helpers/http';
import { signupOperator, type TestOperator } from '../helpers/identity';
import { createWorkflow, mcpOperator, rpc, toolAutomation } from '../helpers/mcp';
import { consentRequestOf, decide, startOAuthApp } from '../helpers/mcpOAuth';
import { authorizeUrl, connectedTokens, pkcePair, registerClient, tokenRequest } from '../helpers/mcpOAuthRaw';
import { startProvider, type TestProvider } from '../helpers/providerServer';
import { acceptInvite, inviteMember } from '../helpers/team';

let app: TestApp;
let provider: TestProvider;
let alpha: TestOperator;
let beta: TestOperator;
const tools = { alphaRead: '', alphaWrite: '', betaRead: '' };

beforeAll(async () => {
  app = await startOAuthApp();
  provider = await startProvider(() => ({ status: 200, body: {} }));
  [alpha, beta] = await Promise.all([signupOperator(app.url, 'Alpha'), signupOperator(app.url, 'Beta')]);
  tools.alphaRead = (await createWorkflow(app.url, alpha.accessToken, toolAutomation('Alpha read', []))).mcp_tool_name;
  const post = { id: 'post', type: 'action.http_request', params: { method: 'POST', url: `${provider.url}/credit` } };
  tools.alphaWrite = (await createWorkflow(app.url, alpha.accessToken, toolAutomation('Alpha write', [post]))).mcp_tool_name;
  tools.betaRead = (await createWorkflow(app.url, beta.accessToken, toolAutomation('Beta read', []))).mcp_tool_name;
}, 120_000);
afterAll(async () => {
  await Promise.all([app?.close(), provider?.close()]);
});

const mcp = (token: string, message: unknown, path = '/mcp-server') => http(`${app.url}${path}`, { token, body: message });
const toolNames = async (token: string) => ((await mcp(token, rpc('tools/list'))).body.result.tools as Array<{ name: string }>).map((tool) => tool.name).sort();
const call = (token: string, name: string) => mcp(token, rpc('tools/call', { name, arguments: { playerId: 'p' } }));

describe('a token acts as its member within their organisation', () => {
  it('another organisation’s tools are neither listed nor callable, nor its legacy path', async () => {
    const { access } = await connectedTokens(app, beta.accessToken);
    expect(await toolNames(access)).toEqual([tools.betaRead]);
    const foreign = await call(access, tools.alphaRead);
    expect(foreign.body.error).toMatchObject({ code: -32602, message: `Unknown tool: ${tools.alphaRead}` });
    const legacy = await mcp(access, rpc('tools/list'), `/mcp-server/${alpha.operatorId}`);
    expect(legacy.status).toBe(403);
    expect(legacy.body.error.message).toBe('code: AUTH_OPERATOR_MISMATCH');
  });

  it('a read-only grant calls read tools; a tool with real effects is 403 insufficient_scope (step-up)', async () => {
    const { access } = await connectedTokens(app, alpha.accessToken, ['mcp:tools.read']);
    expect((await call(access, tools.alphaRead)).body.result.isError).toBeFalsy();
    const write = await call(access, tools.alphaWrite);
    expect(write.status).toBe(403);
    expect(write.body.error).toEqual({ code: -32001, message: 'code: INSUFFICIENT_SCOPE' });
    expect(write.headers.get('www-authenticate')).toContain('error="insufficient_scope", scope="mcp:tools.read mcp:tools.write"');
    expect(provider.requests).toHaveLength(0);
  });

  it('a Member may not approve tools with real effects unless the organisation allows it; read-only they may', async () => {
    const invite = await inviteMember(app, alpha.accessToken, 'member');
    const member = (await acceptInvite(app, invite.token)).body.data.access_token as string;
    const client = (await registerClient(app)).body.client_id as string;
    const requestId = await consentRequestOf(authorizeUrl(app, client, pkcePair().challenge));
    const shown = await http(`${app.url}/oauth/requests/${requestId}`, { token: member });
    expect(shown.body).toMatchObject({ role: 'member', may_approve_write: false, scopes: ['mcp:tools.read', 'mcp:tools.write'], client: { name: 'Raw host' } });
    expect(shown.body.tools).toEqual(
      expect.arrayContaining([
        { name: tools.alphaRead, title: 'Alpha read', scope: 'mcp:tools.read' },
        { name: tools.alphaWrite, title: 'Alpha write', scope: 'mcp:tools.write' },
      ]),
    );
    const refused = await decide(app, member, requestId);
    expect(refused.status).toBe(403);
    expect(refused.body).toMatchObject({ error: 'access_denied' });
    const readOnly = await decide(app, member, requestId, { decision: 'approve', scopes: ['mcp:tools.read'] });
    expect(readOnly.status).toBe(200);
    expect(readOnly.redirect?.searchParams.get('code')).toMatch(/^mcpac_/);

    expect((await http(`${app.url}/oauth/settings`, { method: 'PUT', token: member, body: { members_may_write: true } })).status).toBe(403);
    expect((await http(`${app.url}/oauth/settings`, { method: 'PUT', token: alpha.accessToken, body: { members_may_write: true } })).status).toBe(200);
    const { access } = await connectedTokens(app, member);
    expect((await call(access, tools.alphaWrite)).body.result.isError).toBeFalsy();
  }, 60_000);

  it('the organisation’s switch and allowlist apply to hosts: off is 403 MCP_NOT_ENABLED, the allowlist narrows the tools', async () => {
    const { access } = await connectedTokens(app, alpha.accessToken);
    const alphaRead = await app.deps.db('automations').where({ operator_id: alpha.operatorId, name: 'Alpha read' }).first('id');
    const put = (body: unknown) => http(`${app.url}/oauth/settings`, { method: 'PUT', token: alpha.accessToken, body });
    expect((await put({ workflow_allowlist: [alphaRead.id] })).status).toBe(200);
    expect(await toolNames(access)).toEqual([tools.alphaRead]);
    expect((await put({ enabled: false, workflow_allowlist: null })).status).toBe(200);
    const off = await mcp(access, rpc('tools/list'));
    expect(off.status).toBe(403);
    expect(off.body.error.message).toBe('code: MCP_NOT_ENABLED');
    expect((await put({ enabled: true })).status).toBe(200);
    expect(await toolNames(access)).toEqual([tools.alphaRead, tools.alphaWrite].sort());
  });

  it('a Member disconnects only their own hosts; the Owner any, audited', async () => {
    const { access } = await connectedTokens(app, alpha.accessToken);
    const hosts = (await http(`${app.url}/oauth/hosts`, { token: alpha.accessToken })).body.data as Array<{ id: string; revoked_at: string | null }>;
    const live = hosts.filter((host) => host.revoked_at === null);
    const invite = await inviteMember(app, alpha.accessToken, 'member');
    const member = (await acceptInvite(app, invite.token)).body.data.access_token as string;
    expect((await http(`${app.url}/oauth/hosts/${live[0]!.id}`, { method: 'DELETE', token: member })).status).toBe(403);
    for (const host of live) expect((await http(`${app.url}/oauth/hosts/${host.id}`, { method: 'DELETE', token: alpha.accessToken })).status).toBe(204);
    expect((await mcp(access, rpc('tools/list'))).status).toBe(401);
    const betaHosts = (await http(`${app.url}/oauth/hosts`, { token: beta.accessToken })).body.data as Array<{ id: string }>;
    expect((await http(`${app.url}/oauth/hosts/${betaHosts[0]!.id}`, { method: 'DELETE', token: alpha.accessToken })).status).toBe(404);
    const revocations = await app.deps
      .db('audit_events')
      .where({ operator_id: alpha.operatorId, action: 'mcp_grant.revoked' })
      .count<{ count: string }[]>('* as count');
    expect(Number(revocations[0]!.count)).toBe(live.length);
  });
});

describe('a grant follows its member', () => {
  it('a suspended member’s host is refused at once and gets no new tokens', async () => {
    const invite = await inviteMember(app, alpha.accessToken, 'member');
    const session = (await acceptInvite(app, invite.token)).body.data;
    const { grant, access, refresh } = await connectedTokens(app, session.access_token, ['mcp:tools.read']);
    expect((await mcp(access, rpc('tools/list'))).status).toBe(200);
    const memberId = (await app.deps.db('members').where({ user_id: session.user.id }).first('id')).id as string;
    expect((await http(`${app.url}/platform-api/operators/me/members/${memberId}`, { method: 'DELETE', token: alpha.accessToken })).status).toBe(200);
    expect((await mcp(access, rpc('tools/list'))).status).toBe(401);
    const refreshed = await tokenRequest(app, { grant_type: 'refresh_token', refresh_token: refresh, client_id: grant.clientId });
    expect(refreshed).toEqual({ status: 400, body: { error: 'invalid_grant', error_description: 'The member who approved this host no longer has access' } });
  });
});

describe('API keys keep the spec’s codes, with the challenge added', () => {
  it('AUTH_MISSING, AUTH_INVALID_FORMAT (a session token), AUTH_INVALID, and a key still works', async () => {
    const keyed = await mcpOperator(app.url);
    const codes = [];
    for (const token of [undefined, alpha.accessToken, `svc_live_${'0'.repeat(64)}`]) {
      const response = await http(`${app.url}/mcp-server`, { ...(token ? { token } : {}), body: rpc('tools/list') });
      expect(response.status).toBe(401);
      expect(response.headers.get('www-authenticate')).toMatch(/^Bearer resource_metadata="/);
      codes.push(response.body.error.message);
    }
    expect(codes).toEqual(['code: AUTH_MISSING', 'code: AUTH_INVALID_FORMAT', 'code: AUTH_INVALID']);
    expect((await mcp(keyed.key, rpc('tools/list'))).status).toBe(200);
  });
});
