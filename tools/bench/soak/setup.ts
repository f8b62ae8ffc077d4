import { IGAMING_TEMPLATE_ID } from '../../../core/templates';
import { benchOperator, post, supplierConnection } from '../lib/stack';

export const PLAYERS = 100;

export interface SoakFixtures {
  /** One API key for everything: data, analytics, gateway and MCP (enabled on it). */
  key: string;
  connectionId: string;
  toolName: string;
}

/**
 * An operator with the iGaming template, `PLAYERS` players, the analytics rollups caught up once, a connection to the loopback supplier, an MCP tool
 * (manual trigger → `set_state`) and an automation on every `transaction` event (→ `set_state`): the single
 * ingest sends `game_activity` events, which nothing listens to, so only the event kind starts runs.
 */
export async function prepareSoak(url: string, supplierUrl: string): Promise<SoakFixtures> {
  const { operatorId, accessToken } = await benchOperator(url);
  const created = await post(url, '/api-keys', { operatorId, label: 'soak' }, accessToken);
  await post(url, `/api-keys/${created.data.id}/mcp`, { mcp_enabled: true }, accessToken, 'PATCH');
  const key = created.data.key as string;
  await post(url, '/operator-data-api/settings', { templateId: IGAMING_TEMPLATE_ID, reportingCurrency: 'EUR' }, key, 'PUT');
  const players = await post(
    url,
    '/operator-data-api/batch/entities',
    Array.from({ length: PLAYERS }, (_, i) => ({ entityType: 'player', externalId: `player-${i}`, data: { country: 'MT' } })),
    key,
  );
  await waitForJob(url, key, players.data.jobId as string);
  // From here `/kpis` reads the rollups, as in production where the `analytics-refresh` Schedule keeps them caught up.
  await post(url, '/analytics-api/analytics/refresh', {}, key);

  const connectionId = await supplierConnection(url, key, supplierUrl, 'soak');

  const setState = (externalId: string) => ({ id: 'store', type: 'action.set_state', params: { externalId, key: 'risk_score', value: 1 } });
  const tool = await post(
    url,
    '/workflows-api/workflows',
    {
      name: 'Soak tool',
      description: 'Stores a risk score',
      active: true,
      mcp_exposed: true,
      nodes: [
        {
          id: 'start',
          type: 'trigger.manual',
          params: { inputSchema: { type: 'object', properties: { playerId: { type: 'string' } }, required: ['playerId'] } },
        },
        setState('{{ trigger.playerId }}'),
      ],
      edges: [{ from: 'start', to: 'store' }],
    },
    key,
  );
  await post(
    url,
    '/workflows-api/workflows',
    {
      name: 'Soak deposit flag',
      active: true,
      nodes: [{ id: 'start', type: 'trigger.event', params: { event: 'entity_event.transaction' } }, setState('{{ trigger.entity.externalId }}')],
      edges: [{ from: 'start', to: 'store' }],
    },
    key,
  );
  return { key, connectionId, toolName: tool.data.mcp_tool_name as string };
}

async function waitForJob(url: string, key: string, jobId: string): Promise<void> {
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    const job = await fetch(`${url}/operator-data-api/batch/jobs/${jobId}`, { headers: { authorization: `Bearer ${key}` } }).then(
      (answer) => answer.json() as Promise<any>,
    );
    if (job.data?.status === 'completed') return;
    if (job.data?.status === 'failed') throw new Error(`setup batch failed: ${job.data.error}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error('setup batch did not complete within 60 s');
}
