import { renameApiKey as renameApiKeyRow } from '../../db/queries/apiKeys';
import type { CommandDeps } from '../deps';
import { assertKeyId, keyNotFound } from './refusals';

export interface RenameApiKeyInput {
  operatorId: string;
  id: string;
  label: string;
}

/** Relabels one of the operator's keys, revoked or not (404 for a key of another operator). */
export async function renameApiKey(deps: Pick<CommandDeps, 'db'>, input: RenameApiKeyInput): Promise<void> {
  assertKeyId(input.id);
  if (!(await renameApiKeyRow(deps.db, input.operatorId, input.id, input.label))) throw keyNotFound();
}
