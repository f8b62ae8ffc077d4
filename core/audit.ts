import { createHash } from 'node:crypto';
import { stableStringify } from './stableJson';

/** Who made a change, as versions record it: `member:<id>` (a session or its dashboard credential) or `key:<id>`. */
export type Actor = `member:${string}` | `key:${string}`;

export const AUDIT_ACTOR_KINDS = ['member', 'api_key'] as const;
export type AuditActorKind = (typeof AUDIT_ACTOR_KINDS)[number];

export const AUDIT_TARGET_TYPES = [
  'automation',
  'api_key',
  'connection',
  'connector',
  'member',
  'invite',
  'settings',
  'mcp_grant',
  'player',
  'run',
  'evidence',
] as const;
export type AuditTargetType = (typeof AUDIT_TARGET_TYPES)[number];

/** Every change the trail records, `<target type>.<what happened>`. */
export const AUDIT_ACTIONS = [
  'automation.created',
  'automation.updated',
  'automation.rolled_back',
  'automation.deleted',
  'api_key.created',
  'api_key.renamed',
  'api_key.mcp_updated',
  'api_key.revoked',
  'api_key.deleted',
  'connection.created',
  'connection.updated',
  'connector.created',
  'connector.deleted',
  'member.updated',
  'member.suspended',
  'invite.created',
  'invite.resent',
  'invite.revoked',
  'invite.accepted',
  'settings.updated',
  'mcp_grant.created',
  'mcp_grant.refresh_reused',
  'mcp_grant.revoked',
  'player.compliance_updated',
  'player.consent_updated',
  'automation.test_run_started',
  'automation.replay_started',
  'automation.replay_cancelled',
  'run.rerun_started',
  'evidence.exported',
] as const;
export type AuditAction = (typeof AUDIT_ACTIONS)[number];

/** `member:<id>` → `{ kind: 'member', id }`, `key:<id>` → `{ kind: 'api_key', id }`; anything else is null. */
export function parseActor(actor: string): { kind: AuditActorKind; id: string } | null {
  const match = /^(member|key):(.+)$/.exec(actor);
  if (!match) return null;
  return { kind: match[1] === 'member' ? 'member' : 'api_key', id: match[2]! };
}

/** A record as the trail sees it: its fields, dates as ISO strings, minus those left out (secrets' hashes, bookkeeping). */
export type AuditRecord = Record<string, unknown>;

/**
 * The fields of `row` the trail hashes and compares: every one but `omit`, dates as ISO strings, so a hash can be
 * recomputed from the row as a later read returns it.
 */
export function auditRecordOf(row: object, omit: readonly string[] = []): AuditRecord {
  const record: AuditRecord = {};
  for (const [key, value] of Object.entries(row)) {
    if (omit.includes(key) || value === undefined) continue;
    record[key] = value instanceof Date ? value.toISOString() : value;
  }
  return record;
}

/**
 * SHA-256 hex of the record's stable JSON (keys sorted at every depth): what `before_hash` and `after_hash` hold. It
 * proves which state a change left without storing it; sealed values inside a record are hashed as their ciphertext.
 */
export const auditHash = (record: AuditRecord): string => createHash('sha256').update(stableStringify(record), 'utf8').digest('hex');

/** The names of the fields whose value differs between two records, sorted; a field in one only counts as changed. */
export function changedFields(before: AuditRecord, after: AuditRecord, ignore: readonly string[] = []): string[] {
  const keys = new Set([...Object.keys(before), ...Object.keys(after)]);
  return [...keys].filter((key) => !ignore.includes(key) && stableStringify(before[key] ?? null) !== stableStringify(after[key] ?? null)).sort();
}
