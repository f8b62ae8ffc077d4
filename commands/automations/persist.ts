import type { Knex } from 'knex';
import type { Keyring } from '../../core/crypto';
import { secretToken } from '../../core/ids';
import type { AutomationBody, AutomationLayout } from '../../core/automations/definition';
import { heardEvents } from '../../core/automations/runControl';
import { toolNameOf, withSuffix } from '../../core/automations/slug';
import type { AutomationNode } from '../../core/automations/types';
import type { WebhookRow } from '../../db/queries/automationWebhooks';
import { toolNamesLike, type AutomationWrite } from '../../db/queries/automations';

/** The keyring context a webhook secret is sealed with: it opens only for this operator's webhook. */
export const webhookSecretContext = (operatorId: string, webhookId: string) => `${operatorId}:webhook:${webhookId}`;

/**
 * Turns a validated body into what is stored: each `trigger.webhook` node gets its webhook id (kept
 * across updates of the same node id) and `hasSecret` in place of the secret, which is sealed into
 * its webhook row. On update an absent `secret` keeps the stored one, `null` removes it.
 *
 * @example const { nodes, webhooks } = sealWebhooks(body.nodes, existingWebhooks, keyring, operatorId, automationId)
 */
export function sealWebhooks(
  nodes: AutomationNode[],
  existing: WebhookRow[],
  keyring: Keyring,
  operatorId: string,
  automationId: string,
): { nodes: AutomationNode[]; webhooks: WebhookRow[] } {
  const byNode = new Map(existing.map((row) => [row.node_id, row]));
  const webhooks: WebhookRow[] = [];
  const stored = nodes.map((node) => {
    if (node.type !== 'trigger.webhook') return node;
    const { secret, webhookId: _ignored, hasSecret: _derived, ...params } = node.params;
    const previous = byNode.get(node.id);
    const id = previous?.id ?? secretToken('whk');
    let secretCiphertext = previous?.secret_ciphertext ?? null;
    if (typeof secret === 'string') secretCiphertext = keyring.encrypt(secret, webhookSecretContext(operatorId, id));
    if (secret === null) secretCiphertext = null;
    const providerName = typeof params.name === 'string' ? params.name : null;
    webhooks.push({
      id,
      operator_id: operatorId,
      automation_id: automationId,
      node_id: node.id,
      provider_name: providerName,
      secret_ciphertext: secretCiphertext,
    });
    return { ...node, params: { ...params, webhookId: id, hasSecret: secretCiphertext !== null } };
  });
  return { nodes: stored, webhooks };
}

/**
 * The first free tool name for `name` among the operator's other workflows: `slug`, then `slug_2`, `slug_3`, …
 * The names in use are read by a prefix short enough to include suffixed variants of a 64-character slug
 * (`withSuffix` shortens the slug to make room). A transaction lock per operator serialises the choice, so
 * concurrent creates of the same name get different names instead of a unique-index violation.
 */
export async function freeToolName(trx: Knex.Transaction, operatorId: string, name: string, exceptId?: string): Promise<string> {
  await trx.raw("SELECT pg_advisory_xact_lock(hashtext('workflow-tool-names:' || ?))", [operatorId]);
  const slug = toolNameOf(name);
  const taken = await toolNamesLike(trx, operatorId, slug.slice(0, 40), exceptId);
  if (!taken.has(slug)) return slug;
  for (let n = 2; ; n += 1) {
    const candidate = withSuffix(slug, n);
    if (!taken.has(candidate)) return candidate;
  }
}

/** The columns of a workflow row for a validated body whose webhook nodes are already sealed. */
export function automationWrite(body: AutomationBody, nodes: AutomationNode[], toolName: string, layout: AutomationLayout): AutomationWrite {
  return {
    layout,
    name: body.name,
    description: body.description,
    active: body.active,
    mcp_exposed: body.mcp_exposed,
    mcp_tool_name: toolName,
    nodes,
    edges: body.edges,
    run_control: body.run_control ?? null,
    trigger_events: heardEvents(nodes, body.run_control ?? null),
  };
}

const TOOL_NAME_INDEX = 'automations_tool_name_idx';

/**
 * Runs a write that picks a tool name, again when a concurrent write took the same name first (the
 * unique index refuses the second): the retry sees the name taken and picks the next one.
 *
 * @example const row = await withToolNameRetry(() => deps.db.transaction(async (trx) => insert(trx)))
 */
export async function withToolNameRetry<T>(write: () => Promise<T>, attempts = 3): Promise<T> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await write();
    } catch (error) {
      const pgError = error as { code?: string; constraint?: string };
      if (attempt >= attempts || pgError.code !== '23505' || pgError.constraint !== TOOL_NAME_INDEX) throw error;
    }
  }
}
