import type { PlayerSnapshot } from '../../core/automations/playerSnapshot';
import { snapshotOf } from '../../core/playerSeal';
import { readPlayers } from '../../db/queries/playerSnapshots';
import type { CommandDeps } from '../deps';

/**
 * The snapshot of the operator's player `externalId` as it is now (docs/workflows.md "The player in a run"); null
 * for a player the operator does not have (or erased). Read within the operator, so another organisation's player of
 * the same external id is never found.
 */
export async function playerSnapshot(deps: Pick<CommandDeps, 'db' | 'keyring'>, operatorId: string, externalId: string): Promise<PlayerSnapshot | null> {
  const [row] = await readPlayers(deps.db, operatorId, { externalIds: [externalId] });
  return row ? snapshotOf(deps.keyring, operatorId, row) : null;
}

/** Snapshots of many players by entity id (a backtest page's players), as they are now. */
export async function playerSnapshotsById(deps: Pick<CommandDeps, 'db' | 'keyring'>, operatorId: string, ids: string[]): Promise<Map<string, PlayerSnapshot>> {
  const rows = await readPlayers(deps.db, operatorId, { ids: [...new Set(ids)] });
  return new Map(rows.map((row) => [row.id, snapshotOf(deps.keyring, operatorId, row)]));
}
