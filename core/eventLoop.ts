/**
 * Lets the event loop run whatever else is waiting before going on. Work on a large value (a 3 MB answer parsed,
 * renamed, sealed and written) is split by these turns into steps of tens of milliseconds, so a worker's other
 * tenants are not held up for the whole of it. Not for workflow code (it has no event loop of its own).
 */
export const nextTurn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/** `nextTurn` only when `bytes` are many enough for the step before to have taken a while. */
export const nextTurnAfter = (bytes: number): Promise<void> | undefined => (bytes >= LARGE_BYTES ? nextTurn() : undefined);

/** About a millisecond of JSON or crypto work. */
const LARGE_BYTES = 256 * 1024;
