import { isPayloadRef } from '../payloadRef';
import { READS_PLAYER, templateExpressions } from './expressions';
import { isRecord, type AutomationDefinition } from './types';

/**
 * The run's player as workflow code holds it (docs/workflows.md "The player in a run"): the snapshot sealed with the
 * keyring, bound to the operator and the run, opened only by the activity that evaluates an expression naming
 * `player` (activities/automation/expressions.ts). Workflow code passes it along and never reads it, so its personal
 * fields are not in the clear anywhere in the run's history, even opened with the payload codec.
 */
export const SEALED_PLAYER_KEY = '$sealedPlayer';

export interface SealedPlayer {
  [SEALED_PLAYER_KEY]: string;
  /** The run the ciphertext is bound to (with the operator the activity is given). */
  runId: string;
}

/** True for a {@link SealedPlayer}: the plain-path walk treats it as a value kept out of the workflow. */
export function isSealedPlayer(value: unknown): value is SealedPlayer {
  return isRecord(value) && typeof value[SEALED_PLAYER_KEY] === 'string';
}

/**
 * The expressions a run evaluates in its own steps: conditions, `action.wait_for_event` filters and every `{{ }}`
 * template. A value kept out of the workflow as a reference (a long param of a large definition) is unread here, so it
 * counts as one that may read anything.
 */
function sourcesOf(value: unknown, whole: boolean, found: string[]): string[] {
  if (isPayloadRef(value)) found.push('player');
  else if (typeof value === 'string') found.push(...(whole ? [value] : templateExpressions(value)));
  else if (Array.isArray(value)) for (const item of value) sourcesOf(item, false, found);
  else if (isRecord(value)) for (const inner of Object.values(value)) sourcesOf(inner, false, found);
  return found;
}

/**
 * Whether any step of the definition reads `player`: only then does a run take the snapshot (one local activity). A
 * trigger's own filter is judged by the dispatcher before any run exists and does not count.
 */
export function definitionReadsPlayer(definition: AutomationDefinition): boolean {
  return definition.nodes.some((node) => {
    if (node.type.startsWith('trigger.')) return false;
    const sources: string[] = [];
    for (const [key, value] of Object.entries(node.params ?? {})) {
      sourcesOf(value, (node.type === 'condition' && key === 'expression') || (node.type === 'action.wait_for_event' && key === 'filter'), sources);
    }
    return sources.some((source) => READS_PLAYER.test(source));
  });
}
