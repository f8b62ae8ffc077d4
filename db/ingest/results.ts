import type { ItemError } from '../../core/ingestItems';

/** What happened to one item of a write (a single call is a batch of one). */
export type ItemOutcome =
  | { index: number; externalId: string; ok: true; id: string; action?: 'created' | 'updated'; row?: Record<string, unknown> }
  | { index: number; externalId: string; ok: false; error: ItemError };

export interface Indexed<T> {
  index: number;
  write: T;
}

export const notFound = (externalId: string): ItemError => ({ code: 'ENTITY_NOT_FOUND', message: `No entity with externalId ${externalId}` });
export const erased = (externalId: string): ItemError => ({ code: 'ENTITY_ERASED', message: `Entity ${externalId} has been erased` });
