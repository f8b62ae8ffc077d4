import { runAudiencePass } from '../../db/queries/audiencePass';
import { analytics, dayAgo, seedPlayers } from '../helpers/analytics';
import { startTestApp, type TestApp } from '../helpers/app';
import { dataClient, type DataClient } from '../helpers/data';
import { createApiKey } from '../helpers/identity';
import { modernPost, setMcp } from '../helpers/mcp';

/**
 * The read-only MCP tool `analytics.audiences` (docs/mcp.md "Built-in tools", issue 45): listed only while the operator
 * keeps an audience and only to keys without an allowlist; lists audiences, reads one's sizes and members page by page;
 * another operator's audience is a tool error, never its members.
 */
let app: TestApp;
let alice: DataClient;
let bob: DataClient;
let aliceMcp: string;
let bobMcp: string;
let vip: string;

async function mcpKey(client: DataClient, allowlist: string[] | null = null): Promise<string> {
  const { id, key } = await createApiKey(app.url, client.operator, 'mcp');
  await setMcp(app.url, client.operator, id, { mcp_enabled: true, mcp_workflow_allowlist: allowlist });
  return key;
}
const toolNames = async (key: string) =>
  ((await modernPost(app.url, key, 'tools/list', {})).body.result.tools as Array<{ name: string }>).map((tool) => tool.name);
const call = (key: string, args: Record<string, unknown>) => modernPost(app.url, key, 'tools/call', { name: 'analytics.audiences', arguments: args });

beforeAll(async () => {
  app = await startTestApp();
  [alice, bob] = await Promise.all([dataClient(app), dataClient(app)]);
  [aliceMcp, bobMcp] = await Promise.all([mcpKey(alice), mcpKey(bob)]);
  await seedPlayers(alice, [{ externalId: 'v1' }, { externalId: 'v2' }, { externalId: 'v3' }, { externalId: 'x' }]);
  for (const id of ['v1', 'v2', 'v3'])
    expect((await alice.call(`/entities/${id}/state/loyalty_tier`, { method: 'PUT', body: { value: 'vip' } })).status).toBe(200);
}, 60_000);
afterAll(() => app.close());

it('is not listed before the operator keeps an audience; then it is, with read-only annotations', async () => {
  expect(await toolNames(aliceMcp)).not.toContain('analytics.audiences');
  expect((await call(aliceMcp, {})).body.error.code).toBe(-32602);
  const created = await analytics(app, alice.key, '/audiences', {
    method: 'POST',
    body: { name: 'VIP', definition: { all: [{ field: 'state', key: 'loyalty_tier', op: 'eq', value: 'vip' }] } },
  });
  vip = created.body.data.id;
  for (;;) if ((await runAudiencePass(app.deps.db)).complete) break;
  const tools = (await modernPost(app.url, aliceMcp, 'tools/list', {})).body.result.tools;
  expect(tools.find((tool: { name: string }) => tool.name === 'analytics.audiences').annotations).toEqual({
    readOnlyHint: true,
    destructiveHint: false,
    idempotentHint: true,
    openWorldHint: false,
  });
  expect(await mcpKey(alice, []).then(toolNames)).toEqual([]);
});

it('lists the audiences, then reads one audience’s sizes and members page by page', async () => {
  const listed = (await call(aliceMcp, {})).body.result;
  expect(listed.isError).toBe(false);
  expect(listed.structuredContent.audiences).toEqual([expect.objectContaining({ id: vip, name: 'VIP', size: 3 })]);
  const first = (await call(aliceMcp, { audienceId: vip, limit: 2 })).body.result.structuredContent;
  expect(first.sizes).toEqual([{ day: dayAgo(0), size: 3, entered: 0, exited: 0 }]);
  expect([first.members.length, first.total, first.has_more]).toEqual([2, 3, true]);
  const second = (await call(aliceMcp, { audienceId: vip, limit: 2, offset: 2 })).body.result.structuredContent;
  expect(second.has_more).toBe(false);
  expect([...first.members, ...second.members].map((member: { external_id: string }) => member.external_id).sort()).toEqual(['v1', 'v2', 'v3']);
  expect((await call(aliceMcp, { audienceId: vip, limit: 101 })).body.error.code).toBe(-32602);
  expect((await call(aliceMcp, { audienceId: vip, sql: 'x' })).body.error.code).toBe(-32602);
});

it('operator B cannot read A’s audience through its own key', async () => {
  await analytics(app, bob.key, '/audiences', {
    method: 'POST',
    body: { name: 'Bob', definition: { all: [{ field: 'deposit_count', op: 'gte', value: 1 }] } },
  });
  const result = (await call(bobMcp, { audienceId: vip })).body.result;
  expect(result.isError).toBe(true);
  expect(result.content[0].text).toContain('NOT_FOUND');
  expect(JSON.stringify(result)).not.toContain('v1');
  expect((await call(bobMcp, {})).body.result.structuredContent.audiences.map((audience: { name: string }) => audience.name)).toEqual(['Bob']);
});
