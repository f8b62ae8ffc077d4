/** Rate limits high enough that a benchmark, fault run or fuzz run measures the platform, not its refusals. */
export const LOAD_RATE_LIMITS = {
  RATE_LIMIT_AUTH: '1000000',
  RATE_LIMIT_INGEST_REALTIME: '100000000',
  RATE_LIMIT_INGEST_BATCH: '1000000',
  RATE_LIMIT_GATEWAY_EXECUTE: '100000000',
};
