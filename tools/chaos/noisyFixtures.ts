import { startLoopbackServer, type LoopbackServer } from '../stack/loopbackServer';
import { SUPPLIER_KEY } from '../stack/loopbackSupplier';
import { post, signUpOperator, supplierConnection } from '../stack/stackClient';
import { IGAMING_TEMPLATE_ID } from '../../core/templates';

/** The backtracking regex, hidden from the definition-time checker by `$eval`: only the sandbox's budget stops it. */
export const HIDDEN_REGEX = `$eval('$contains("aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa!", /^(a+)+$/)')`;
/** The same regex in plain sight: refused at definition time. */
export const PLAIN_REGEX = '$contains("aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa!", /^(a+)+$/)';

export interface Tenant {
  operatorId: string;
  key: string;
  connectionId: string;
}

const THREE_MB = 3 * 1024 * 1024;

/**
 * A supplier for both tenants on loopback (the KYC document of `tools/stack/loopbackSupplier.ts`): `kyc.status` of a
 * player whose reference starts with `big-` answers about 3 MB, `/large` (an `action.http_request` target) 1 MB, any
 * other player a small document.
 */
export async function startNoisySupplier(): Promise<LoopbackServer> {
  const document = { doc_type: 'passport', kyc_state: 'approved', note: 'x'.repeat(200) };
  const big = JSON.stringify({ player_ref: 'big', kyc_state: 'approved', documents: Array.from({ length: Math.ceil(THREE_MB / 250) }, () => document) });
  const large = JSON.stringify({ rows: 'r'.repeat(1000 * 1024) });
  return startLoopbackServer((request, _body, response) => {
    response.setHeader('content-type', 'application/json');
    if (request.url?.startsWith('/large')) return void response.end(large);
    if (request.headers['x-api-key'] !== SUPPLIER_KEY) return void response.writeHead(401).end('{"error":"unauthorised"}');
    const player = /^\/players\/([^/]+)\/kyc/.exec(request.url ?? '')?.[1] ?? '';
    response.end(player.startsWith('big-') ? big : JSON.stringify({ player_ref: player, kyc_state: 'approved', checked_on: '2026-01-02T03:04:05Z' }));
  });
}

/** An operator with the iGaming template, a player `p-1`, an MCP-enabled key and a connection to the supplier. */
export async function tenant(url: string, supplierUrl: string, name: string): Promise<Tenant> {
  const { operatorId, accessToken } = await signUpOperator(url);
  const created = await post(url, '/api-keys', { operatorId, label: name }, accessToken);
  await post(url, `/api-keys/${created.data.id}/mcp`, { mcp_enabled: true }, accessToken, 'PATCH');
  const key = created.data.key as string;
  await post(url, '/operator-data-api/settings', { templateId: IGAMING_TEMPLATE_ID }, key, 'PUT');
  await post(url, '/operator-data-api/entities', { entityType: 'player', externalId: 'p-1', data: { country: 'MT' } }, key);
  return { operatorId, key, connectionId: await supplierConnection(url, key, supplierUrl, name) };
}

const create = async (url: string, key: string, body: Record<string, unknown>) => (await post(url, '/workflows-api/workflows', body, key)).data;
const manual = { id: 'start', type: 'trigger.manual', params: {} };
const mark = (value: unknown) => ({ id: 'mark', type: 'action.set_state', params: { externalId: 'p-1', key: 'risk_score', value } });

/** The quiet tenant's automations: an MCP tool (→ set_state) and a run on every deposit (→ set_state). */
export async function quietAutomations(url: string, quiet: Tenant): Promise<{ toolName: string }> {
  const tool = await create(url, quiet.key, {
    name: 'Quiet tool',
    mcp_exposed: true,
    nodes: [manual, mark('{{ $count([1, 2, 3]) }}')],
    edges: [{ from: 'start', to: 'mark' }],
  });
  await create(url, quiet.key, {
    name: 'Quiet deposits',
    nodes: [
      { id: 'start', type: 'trigger.event', params: { event: 'entity_event.transaction', filter: 'trigger.data.amount > 1' } },
      mark('{{ trigger.data.amount }}'),
    ],
    edges: [{ from: 'start', to: 'mark' }],
  });
  return { toolName: tool.mcp_tool_name as string };
}

/** The noisy tenant's automations: a backtracking condition, a backtracking event filter and condition, and large outputs. */
export async function noisyAutomations(url: string, noisy: Tenant, supplierUrl: string): Promise<{ backtracking: string; large: string }> {
  const guarded = (trigger: Record<string, unknown>, expression: string) => ({
    nodes: [trigger, { id: 'check', type: 'condition', params: { expression } }, mark(1)],
    edges: [
      { from: trigger.id, to: 'check' },
      { from: 'check', to: 'mark', when: true },
    ],
  });
  const backtracking = await create(url, noisy.key, { name: 'Backtracking condition', ...guarded(manual, HIDDEN_REGEX) });
  await create(url, noisy.key, {
    name: 'Backtracking filter',
    nodes: [{ id: 'start', type: 'trigger.event', params: { event: 'entity_event.transaction', filter: HIDDEN_REGEX } }, mark(2)],
    edges: [{ from: 'start', to: 'mark' }],
  });
  await create(url, noisy.key, {
    name: 'Backtracking on events',
    ...guarded({ id: 'start', type: 'trigger.event', params: { event: 'entity_event.transaction' } }, HIDDEN_REGEX),
  });
  const large = await create(url, noisy.key, {
    name: 'Large outputs',
    nodes: [
      manual,
      { id: 'kyc', type: 'action.gateway', params: { connectionId: noisy.connectionId, operation: 'kyc.status', params: { playerId: 'big-run' } } },
      { id: 'fetch', type: 'action.http_request', params: { method: 'GET', url: `${supplierUrl}/large` } },
      mark('{{ $count(nodes.kyc.data.documents) + $length(nodes.fetch.body.rows) }}'),
    ],
    edges: [
      { from: 'start', to: 'kyc' },
      { from: 'kyc', to: 'fetch' },
      { from: 'fetch', to: 'mark' },
    ],
  });
  return { backtracking: backtracking.id as string, large: large.id as string };
}
