import type { Knex } from 'knex';
import type { Actor, AuditAction } from '../../core/audit';
import { recordAudit } from '../audit';

/**
 * The player state keys the responsible-gambling gate reads (docs/compliance.md "Where the state lives"): a change to
 * one is a change to whom the operator may market, so it is on the audit trail like a configuration change.
 */
const AUDITED: Record<string, AuditAction> = { compliance: 'player.compliance_updated', consent: 'player.consent_updated' };

export const isAuditedState = (stateKey: string): boolean => Object.hasOwn(AUDITED, stateKey);

/** An object value is hashed as itself, so the event names the flags that changed (`selfExcluded`); anything else as `{ value }`. */
const recordOf = (value: unknown): object => (value !== null && typeof value === 'object' && !Array.isArray(value) ? value : { value });

/**
 * Appends the audit event of a player's `compliance` or `consent` change, in the transaction that wrote it: target
 * `player` and its external id, the names of the flags that changed, hashes of the values before and after, never a
 * value. Writing the same value again records nothing.
 */
export async function auditStateChange(
  trx: Knex.Transaction,
  change: { operatorId: string; actor: Actor; externalId: string; stateKey: string; before: { value: unknown } | null; after: unknown },
): Promise<void> {
  const action = AUDITED[change.stateKey];
  if (!action) return;
  await recordAudit(trx, {
    operatorId: change.operatorId,
    actor: change.actor,
    action,
    target: { type: 'player', id: change.externalId },
    before: change.before ? recordOf(change.before.value) : null,
    after: recordOf(change.after),
    note: `state ${change.stateKey}`,
  });
}
