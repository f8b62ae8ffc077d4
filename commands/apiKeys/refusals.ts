import { isUuid } from '../../core/ids';
import { CommandError } from '../errors';

export const keyNotFound = () => new CommandError('NOT_FOUND', 'Key not found');

export const invalidKeyRequest = (text: string) => new CommandError('INVALID_INPUT', text);

/** Key ids are UUIDs: anything else names no key, and is refused before it reaches a uuid column. */
export function assertKeyId(id: string): void {
  if (!isUuid(id)) throw keyNotFound();
}
