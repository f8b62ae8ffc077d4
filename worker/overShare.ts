/**
 * An operator's share of the sandbox is spent: the dispatcher stops working on its events and leaves them in the
 * outbox until its share has refilled. Not a fault, and never the end of an event.
 */
export class OverShareError extends Error {
  constructor(readonly operatorId: string) {
    super(`the organisation's expressions have used their share of the sandbox for now`);
    this.name = 'OverShareError';
  }
}
