import { touchApiKeys } from '../../db/queries/apiKeys';
import type { CommandDeps } from '../deps';

/** A key's use at `usedAt`, as the API saw it. */
export interface ApiKeyUse {
  id: string;
  usedAt: Date;
}

/**
 * Records when keys were last used (the `lastUsedAt` of the key list), many at once: the API buffers its requests' uses
 * and flushes them here (api/keyUsageTracker.ts). A use older than the one recorded changes nothing.
 */
export async function recordApiKeyUses(deps: Pick<CommandDeps, 'db'>, uses: ApiKeyUse[]): Promise<void> {
  await touchApiKeys(deps.db, uses);
}
