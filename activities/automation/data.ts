import { CommandError } from '../../commands/errors';
import { writeRunData } from '../../commands/runs/writeData';
import { storedSettings } from '../../db/settingsPort';
import type { ActivityDeps } from '../deps';
import { nodeFailure } from './failures';
import type { DataWriteInput } from './types';
import { PAUSES, type ActivityDeclarations } from '../declarations';

/**
 * `action.set_state`, `action.record_event`, `action.upsert_entity`: the use case commands/runs/writeData.ts, exactly
 * once per run and node. A refusal (unknown or erased entity, template violation) fails the node without retry, with
 * the refusal's code — `NO_TEMPLATE` when the operator has none, as run records have always named it.
 */
export function createDataActivities({ db, keyring }: ActivityDeps) {
  const deps = { db, keyring, settings: storedSettings(db) };
  return {
    async automationWriteData(input: DataWriteInput): Promise<Record<string, unknown>> {
      try {
        return (await writeRunData(deps, input)).data;
      } catch (error) {
        if (!(error instanceof CommandError)) throw error;
        if (error.code === 'TEMPLATE_NOT_CONFIGURED') throw nodeFailure('NO_TEMPLATE', 'The operator has no template configured');
        throw nodeFailure(error.code, error.message, error.details);
      }
    },
  };
}

/** How each of these activities meets the budget of large data (../declarations.ts). */
export const DATA_ACTIVITIES = {
  automationWriteData: PAUSES,
} satisfies ActivityDeclarations<typeof createDataActivities>;
