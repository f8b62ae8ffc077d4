import { SandboxUnavailableError } from '../sandbox/expressionSandbox';
import { OverShareError } from './overShare';

/** Times an event's dispatch may throw on its own content before it is set aside. */
export const POISON_ATTEMPTS = 3;
const KEPT = 10_000;

/**
 * An outage — the database, Temporal, the sandbox away or overloaded — says nothing about the event: its dispatch is
 * retried for as long as the outage lasts. Recognised by the errors those clients throw: a `code` (PostgreSQL's
 * SQLSTATE, Node's system errors, gRPC's status), the Temporal client's and the sandbox's own errors.
 */
export function isOutage(error: unknown): boolean {
  if (error instanceof SandboxUnavailableError) return true;
  if (!(error instanceof Error)) return false;
  if (['ServiceError', 'ConnectionError', 'TimeoutError', 'KnexTimeoutError', 'AbortError'].includes(error.name)) return true;
  const code = (error as { code?: unknown }).code;
  return typeof code === 'string' || typeof code === 'number';
}

/**
 * Counts, per outbox event, the dispatch passes that threw on it for reasons of its own (not an outage), so the event
 * that makes evaluation or a start throw every time is set aside after {@link POISON_ATTEMPTS} tries instead of being
 * retried in front of its operator's later events for ever. Per process: a restart gives a poison event its tries again.
 */
export class DispatchFaults {
  private readonly attempts = new Map<string, number>();

  /**
   * Notes a failure of the event's dispatch; true when it is now to be set aside (recorded as skipped, dispatched). An
   * outage or a spent share (a run-control `key` waiting for the sandbox) is never the event's fault.
   */
  setAside(seq: string, error: unknown): boolean {
    if (isOutage(error) || error instanceof OverShareError) return false;
    const attempts = (this.attempts.get(seq) ?? 0) + 1;
    this.attempts.set(seq, attempts);
    if (this.attempts.size > KEPT) this.attempts.delete(this.attempts.keys().next().value!);
    return attempts >= POISON_ATTEMPTS;
  }

  /** Events dispatched: their counts go. */
  forget(seqs: string[]): void {
    for (const seq of seqs) this.attempts.delete(seq);
  }
}
