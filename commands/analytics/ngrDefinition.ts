import type { DayRange } from '../../core/analyticsParams';
import type { Actor } from '../../core/audit';
import { NgrDefinitionSchema, ngrOf, NO_DEDUCTIONS, type NgrDefinition, type NgrFigures } from '../../core/ngrDefinition';
import { ngrParts } from '../../db/queries/analyticsNgr';
import type { AnalyticsScope } from '../../db/queries/analyticsTypes';
import { insertNgrDefinition, latestNgrDefinition, listNgrDefinitions } from '../../db/queries/ngrDefinitions';
import { recordAudit } from '../audit';
import type { CommandDeps } from '../deps';

export interface NgrDefinitionVersion {
  version: number;
  definition: NgrDefinition;
  created_by: string;
  created_at: string;
}

/** At most this many versions are listed (the latest first); older ones stay stored. */
export const NGR_VERSIONS_LISTED = 50;

const versionOf = (row: { version: number; definition: unknown; created_by: string; created_at: Date }): NgrDefinitionVersion => ({
  version: row.version,
  definition: NgrDefinitionSchema.parse(row.definition),
  created_by: row.created_by,
  created_at: row.created_at.toISOString(),
});

/** The definition NGR is computed with now and its version; version null (no deductions) when none was saved. */
export async function currentNgrDefinition(deps: Pick<CommandDeps, 'db'>, operatorId: string): Promise<{ version: number | null; definition: NgrDefinition }> {
  const row = await latestNgrDefinition(deps.db, operatorId);
  return row ? { version: row.version, definition: NgrDefinitionSchema.parse(row.definition) } : { version: null, definition: NO_DEDUCTIONS };
}

export async function ngrDefinitionVersions(deps: Pick<CommandDeps, 'db'>, operatorId: string): Promise<NgrDefinitionVersion[]> {
  return (await listNgrDefinitions(deps.db, operatorId, NGR_VERSIONS_LISTED)).map(versionOf);
}

/**
 * Saves a new version of the operator's NGR definition (the next number, under the operator's lock) with its audit
 * event (`settings.updated`, the field `ngrDefinition`) in the same transaction, and answers it.
 */
export async function saveNgrDefinition(
  deps: Pick<CommandDeps, 'db'>,
  input: { operatorId: string; definition: NgrDefinition; actor: Actor },
): Promise<NgrDefinitionVersion> {
  return deps.db.transaction(async (trx) => {
    await trx.raw("SELECT pg_advisory_xact_lock(hashtext('ngr-definition:' || ?))", [input.operatorId]);
    const before = await latestNgrDefinition(trx, input.operatorId);
    const saved = versionOf(await insertNgrDefinition(trx, input.operatorId, input.definition, input.actor));
    await recordAudit(trx, {
      operatorId: input.operatorId,
      actor: input.actor,
      action: 'settings.updated',
      target: { type: 'settings', id: input.operatorId },
      before: { ngrDefinition: before ? { version: before.version, ...(before.definition as object) } : null },
      after: { ngrDefinition: { version: saved.version, ...saved.definition } },
      note: `NGR definition version ${saved.version}`,
    });
    return saved;
  });
}

/**
 * The NGR figures of each range with the operator's current definition, and that definition's version; `parts` reads
 * the GGR and bonus cost per jurisdiction of every range (the raw tables' by default, `viewNgrParts` once the rollups
 * have caught up).
 */
export async function ngrFigures(
  deps: Pick<CommandDeps, 'db'>,
  scope: AnalyticsScope,
  ranges: DayRange[],
  parts: typeof ngrParts = ngrParts,
): Promise<{ version: number | null; figures: NgrFigures[] }> {
  const { version, definition } = await currentNgrDefinition(deps, scope.operatorId);
  const listed = definition.taxes.map((tax) => tax.jurisdiction.toUpperCase());
  const figures = (await parts(deps.db, scope, ranges, listed)).map((rangeParts) => ngrOf(rangeParts, definition));
  return { version, figures };
}
