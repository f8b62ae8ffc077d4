import { playerSnapshot } from '../../commands/runs/player';
import type { SealedPlayer } from '../../core/automations/playerRef';
import { sealPlayer } from '../../core/playerSeal';
import type { ActivityDeps } from '../deps';
import { BOOKKEEPING, type ActivityDeclarations } from '../declarations';

/** The run's player, taken once when a run about one begins (workflows/automation/player.ts). */
export function createPlayerActivities({ db, keyring }: ActivityDeps) {
  return {
    /**
     * The player's snapshot, sealed for this run: the workflow holds only the ciphertext, and only the activity that
     * evaluates an expression naming `player` opens it. Null for a player the operator does not have.
     */
    async automationPlayerSnapshot(input: { operatorId: string; runId: string; externalId: string }): Promise<SealedPlayer | null> {
      const snapshot = await playerSnapshot({ db, keyring }, input.operatorId, input.externalId);
      return snapshot ? sealPlayer(keyring, input.operatorId, input.runId, snapshot) : null;
    },
  };
}

/** How each of these activities meets the budget of large data (../declarations.ts): a bounded read, whole (16 KiB at most sealed). */
export const PLAYER_ACTIVITIES = {
  automationPlayerSnapshot: { ...BOOKKEEPING, result: 'whole' },
} satisfies ActivityDeclarations<typeof createPlayerActivities>;
