import type { AuditTargetType } from '../../core/audit';
import type { Db } from '../knex';

/** What the audit log shows for a target beside its id; no entry when the record is gone. */
export interface AuditTargetName {
  name: string;
  /** The record (for a run, its workflow) has been deleted since: a deleted workflow keeps its row and name. */
  deleted?: boolean;
}

type Ids = ReadonlyArray<string>;

/**
 * The names of a page's targets, keyed `<type>:<id>`, each kind read in one query by the operator and the ids on the
 * page (at most a page's worth): a workflow's name (deleted ones too), a member's display name or login email, an API
 * key's label, a connection's or connector's name, and for a run its workflow's name. Players are named by
 * their external id, which is already the target id; settings, invites and MCP grants keep their ids.
 */
export async function auditTargetNames(
  db: Db,
  operatorId: string,
  targets: ReadonlyArray<{ type: AuditTargetType; id: string }>,
): Promise<Map<string, AuditTargetName>> {
  const idsOf = (type: AuditTargetType): string[] => [...new Set(targets.filter((target) => target.type === type).map((target) => target.id))];
  const names = new Map<string, AuditTargetName>();
  const read = async (type: AuditTargetType, ids: Ids, query: (ids: Ids) => Promise<Array<{ id: string } & AuditTargetName>>) => {
    if (ids.length === 0) return;
    for (const { id, ...name } of await query(ids)) names.set(`${type}:${id}`, name);
  };
  await Promise.all([
    read('automation', idsOf('automation'), (ids) =>
      db('automations').where('operator_id', operatorId).whereIn('id', ids).select('id', 'name', db.raw('deleted_at IS NOT NULL AS deleted')),
    ),
    read('member', idsOf('member'), (ids) =>
      db('members as m')
        .join('users as u', 'u.id', 'm.user_id')
        .where('m.operator_id', operatorId)
        .whereIn('m.id', ids)
        .select('m.id', db.raw("coalesce(nullif(m.display_name, ''), u.email) AS name")),
    ),
    read('api_key', idsOf('api_key'), (ids) => db('api_keys').where('operator_id', operatorId).whereIn('id', ids).select('id', 'label as name')),
    read('connection', idsOf('connection'), (ids) => db('connections').where('operator_id', operatorId).whereIn('id', ids).select('id', 'name')),
    read('connector', idsOf('connector'), (ids) => db('connectors').where('operator_id', operatorId).whereIn('id', ids).select('id', 'name')),
    read('run', idsOf('run'), (ids) =>
      db('automation_runs as r')
        .join('automations as w', function joinAutomation() {
          this.on('w.operator_id', 'r.operator_id').andOn('w.id', 'r.automation_id');
        })
        .where('r.operator_id', operatorId)
        .whereIn('r.id', ids)
        .select('r.id', 'w.name', db.raw('w.deleted_at IS NOT NULL AS deleted')),
    ),
  ]);
  return names;
}
