import type { Knex } from 'knex';
import type { AutomationLayout } from '../../core/automations/definition';
import type { RunControl } from '../../core/automations/runControl';
import type { AutomationEdge, AutomationNode } from '../../core/automations/types';
import type { Db } from '../knex';

type Runner = Db | Knex.Transaction;

export interface AutomationRow {
  id: string;
  operator_id: string;
  name: string;
  description: string;
  active: boolean;
  mcp_exposed: boolean;
  mcp_tool_name: string;
  version: number;
  nodes: AutomationNode[];
  edges: AutomationEdge[];
  trigger_events: string[];
  /** The editor's places of the steps (core/automations/definition.ts `AutomationLayout`). */
  layout: AutomationLayout;
  /** Per-key concurrency, throttle, debounce and cancel-on-event (core/automations/runControl.ts); null: none. */
  run_control: RunControl | null;
  events_since: Date;
  created_at: Date;
  updated_at: Date;
  deleted_at: Date | null;
}

export interface AutomationWrite {
  name: string;
  description: string;
  active: boolean;
  mcp_exposed: boolean;
  mcp_tool_name: string;
  nodes: AutomationNode[];
  edges: AutomationEdge[];
  trigger_events: string[];
  layout: AutomationLayout;
  run_control: RunControl | null;
}

const live = (db: Runner, operatorId: string) => db<AutomationRow>('automations').where({ operator_id: operatorId }).whereNull('deleted_at');

export async function findAutomation(db: Runner, operatorId: string, id: string, options: { forUpdate?: boolean } = {}): Promise<AutomationRow | undefined> {
  const query = live(db, operatorId).where({ id }).first();
  return options.forUpdate ? query.forUpdate() : query;
}

export async function listAutomations(
  db: Runner,
  operatorId: string,
  page: { limit: number; offset: number; active?: boolean },
): Promise<{ rows: AutomationRow[]; count: number }> {
  const filtered = () => {
    const query = live(db, operatorId);
    return page.active === undefined ? query : query.where({ active: page.active });
  };
  const [rows, total] = await Promise.all([
    filtered()
      .orderBy([
        { column: 'created_at', order: 'desc' },
        { column: 'id', order: 'desc' },
      ])
      .limit(page.limit)
      .offset(page.offset)
      .select('*'),
    filtered().count<{ count: string }[]>({ count: '*' }),
  ]);
  return { rows, count: Number(total[0]?.count ?? 0) };
}

/** The tool names in use by the operator's other workflows that start with `slug` (to pick a free suffix). */
export async function toolNamesLike(db: Runner, operatorId: string, slug: string, exceptId?: string): Promise<Set<string>> {
  const query = live(db, operatorId).whereRaw("mcp_tool_name LIKE ? ESCAPE '\\'", [`${slug.replace(/[\\%_]/g, (c) => `\\${c}`)}%`]);
  if (exceptId) query.whereNot({ id: exceptId });
  const rows = await query.select('mcp_tool_name');
  return new Set(rows.map((row) => row.mcp_tool_name));
}

export async function insertAutomation(trx: Runner, operatorId: string, id: string, write: AutomationWrite): Promise<AutomationRow> {
  const [row] = (await trx('automations')
    .insert({
      id,
      operator_id: operatorId,
      ...write,
      nodes: JSON.stringify(write.nodes),
      edges: JSON.stringify(write.edges),
      layout: JSON.stringify(write.layout),
      run_control: write.run_control && JSON.stringify(write.run_control),
    })
    .returning('*')) as AutomationRow[];
  return row!;
}

/**
 * Replaces a definition, bumping `version` unless only the layout changed (`bump` false); re-activation restarts
 * `events_since` so older events do not fire it.
 */
export async function updateAutomation(
  trx: Runner,
  operatorId: string,
  id: string,
  write: AutomationWrite,
  options: { wasActive: boolean; bump: boolean },
): Promise<AutomationRow> {
  const wasActive = options.wasActive;
  const [row] = (await live(trx, operatorId)
    .where({ id })
    .update({
      ...write,
      nodes: JSON.stringify(write.nodes),
      edges: JSON.stringify(write.edges),
      layout: JSON.stringify(write.layout),
      run_control: write.run_control && JSON.stringify(write.run_control),
      ...(options.bump ? { version: trx.raw('version + 1') } : {}),
      updated_at: trx.fn.now(),
      ...(write.active && !wasActive ? { events_since: trx.fn.now() } : {}),
    } as never)
    .returning('*')) as AutomationRow[];
  return row!;
}

export async function softDeleteAutomation(trx: Runner, operatorId: string, id: string): Promise<void> {
  await live(trx, operatorId)
    .where({ id })
    .update({ deleted_at: trx.fn.now(), active: false } as never);
}
