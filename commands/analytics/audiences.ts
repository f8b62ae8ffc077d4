import type { AudienceDefinition } from '../../core/audienceDefinition';
import type { Actor } from '../../core/audit';
import { stableStringify } from '../../core/stableJson';
import { prefixedId } from '../../core/ids';
import { countAudiences, deleteAudience, findAudience, insertAudience, updateAudience, type AudienceRow } from '../../db/queries/audiences';
import { recordAudit } from '../audit';
import type { CommandDeps } from '../deps';

/** Audiences an operator may keep: each costs a share of every audience pass. */
export const AUDIENCES_PER_OPERATOR = 50;

export type AudienceOutcome = { ok: true; audience: AudienceRow } | { ok: false; reason: 'limit' | 'not_found' };

/** What the audit trail hashes of an audience: its name and definition (the figures it keeps move on their own). */
const audited = (row: Pick<AudienceRow, 'id' | 'name' | 'definition' | 'version'> | null) =>
  row && { audience: { id: row.id, name: row.name, definition: row.definition, version: row.version } };

type Trx = Parameters<typeof countAudiences>[0];

/** One audit event per audience change: `settings.updated` on the operator's settings, the audience before and after. */
const auditAudience = (trx: Trx, input: { operatorId: string; actor: Actor }, before: AudienceRow | null, after: AudienceRow | null, note: string) =>
  recordAudit(trx, {
    operatorId: input.operatorId,
    actor: input.actor,
    action: 'settings.updated',
    target: { type: 'settings', id: input.operatorId },
    before: audited(before),
    after: audited(after),
    note,
  });

const lock = (trx: Trx, operatorId: string) => trx.raw("SELECT pg_advisory_xact_lock(hashtext('audiences:' || ?))", [operatorId]);

/**
 * Saves a new audience (its members come with the next pass) and its audit event (`settings.updated`, field
 * `audience`) in one transaction; refused past `AUDIENCES_PER_OPERATOR`, counted under the operator's lock.
 */
export async function createAudience(
  deps: Pick<CommandDeps, 'db'>,
  input: { operatorId: string; name: string; definition: AudienceDefinition; actor: Actor },
): Promise<AudienceOutcome> {
  return deps.db.transaction(async (trx) => {
    await lock(trx, input.operatorId);
    if ((await countAudiences(trx, input.operatorId)) >= AUDIENCES_PER_OPERATOR) return { ok: false, reason: 'limit' };
    const audience = await insertAudience(trx, { id: prefixedId('aud'), ...input, createdBy: input.actor });
    await auditAudience(trx, input, null, audience, `audience ${audience.id} created`);
    return { ok: true, audience };
  });
}

/** Renames or redefines an audience; a changed definition is a new version the next pass judges every player against. */
export async function changeAudience(
  deps: Pick<CommandDeps, 'db'>,
  input: { operatorId: string; id: string; name: string; definition: AudienceDefinition; actor: Actor },
): Promise<AudienceOutcome> {
  return deps.db.transaction(async (trx) => {
    const before = await findAudience(trx, input.operatorId, input.id, true);
    if (!before) return { ok: false, reason: 'not_found' };
    const definitionChanged = stableStringify(before.definition) !== stableStringify(input.definition);
    const audience = await updateAudience(trx, input.operatorId, input.id, { name: input.name, definition: input.definition, definitionChanged });
    await auditAudience(trx, input, before, audience, `audience ${audience.id} updated`);
    return { ok: true, audience };
  });
}

/** Deletes an audience with its members and size history; automations listening for it simply hear nothing more. */
export async function removeAudience(deps: Pick<CommandDeps, 'db'>, input: { operatorId: string; id: string; actor: Actor }): Promise<AudienceOutcome> {
  return deps.db.transaction(async (trx) => {
    const before = await findAudience(trx, input.operatorId, input.id, true);
    if (!before) return { ok: false, reason: 'not_found' };
    await deleteAudience(trx, input.operatorId, input.id);
    await auditAudience(trx, input, before, null, `audience ${before.id} deleted`);
    return { ok: true, audience: before };
  });
}
