/** What a write did, in business terms: the API turns it into a status (api/commandAnswers.ts). */
export type WriteOutcome = 'created' | 'updated' | 'duplicate';

/**
 * A write's answer: what it did and the record it names. `duplicate` is a repeat of an earlier request under the
 * same Idempotency-Key, answered from what that request stored and writing nothing (commands/idempotency.ts).
 */
export interface WriteResult<T> {
  outcome: WriteOutcome;
  data: T;
}
