/** Rate limits high enough that a benchmark, fault run or fuzz run measures the platform, not its refusals. */
export const LOAD_RATE_LIMITS = {
  RATE_LIMIT_AUTH: '1000000',
  RATE_LIMIT_INGEST_REALTIME: '100000000',
  RATE_LIMIT_INGEST_BATCH: '1000000',
  RATE_LIMIT_GATEWAY_EXECUTE: '100000000',
  /** Request body bytes per organisation (api/middleware/bodyBudget.ts): bench:ingest sends 20 batches of 5,000 events at once. */
  BODY_BYTES_PER_SECOND: String(1024 * 1024 * 1024),
  BODY_BYTES_BURST: String(1024 * 1024 * 1024),
};
