import { CancellationScope, proxyLocalActivities } from '@temporalio/workflow';
import type { Activities } from '../../activities';
import type { RunContext } from '../../core/automations/expressions';
import { gatedPlayerOf } from '../../core/automations/nodes/marketing';
import { definitionReadsPlayer } from '../../core/automations/playerRef';
import type { AutomationDefinition } from '../../core/automations/types';
import type { PatchCheck } from './patches';

/** The patch that gives a run about a player its sealed snapshot as `player` (docs/workflows.md#versioning). */
export const PLAYER_SNAPSHOT = 'player-snapshot';

/** A short database read: a local activity, retried as the run's other bookkeeping is. */
const { automationPlayerSnapshot } = proxyLocalActivities<Activities>({
  startToCloseTimeout: '10 seconds',
  retry: { maximumAttempts: 20, initialInterval: '200 milliseconds', backoffCoefficient: 2, maximumInterval: '10 seconds' },
});

/**
 * Puts the run's player into its context, sealed (docs/workflows.md "The player in a run"): for a run about a player
 * (the one the responsible-gambling gate addresses: the trigger's entity, or a manual or MCP run's `playerId`) whose
 * steps read `player`. Any other run asks nothing of Temporal, so it carries no patch marker. Shielded from
 * cancellation like the begin step: the snapshot is taken before any node, and a cancelled run is recorded as such.
 */
export async function addPlayer(
  context: RunContext,
  definition: AutomationDefinition,
  scope: { operatorId: string; runId: string; applies: PatchCheck },
): Promise<void> {
  const externalId = gatedPlayerOf(context.trigger);
  if (externalId === null || !definitionReadsPlayer(definition) || !scope.applies(PLAYER_SNAPSHOT)) return;
  const sealed = await CancellationScope.nonCancellable(() => automationPlayerSnapshot({ operatorId: scope.operatorId, runId: scope.runId, externalId }));
  if (sealed) context.player = sealed;
}
