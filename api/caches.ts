import type { Logger } from 'pino';
import type { Config } from '../core/config';
import { ChangeFeed, connectionStringOf } from '../db/changeFeed';
import type { Db } from '../db/knex';
import type { ApiKeyRow } from '../db/queries/apiKeys';
import type { MemberRow } from '../db/queries/identity';
import type { OperatorSettings } from '../db/queries/settings';
import { ReadThroughCache } from '../db/readThroughCache';

/**
 * The rows every request reads, kept in memory for `CACHE_TTL_MS` and dropped on change by the
 * `cache_invalidation` feed: API keys by hash, members by `operatorId:memberId`, settings by operator.
 */
export interface AppCaches {
  feed: ChangeFeed;
  apiKeys: ReadThroughCache<ApiKeyRow>;
  members: ReadThroughCache<MemberRow>;
  settings: ReadThroughCache<OperatorSettings>;
}

export function createCaches(db: Db, config: Config, logger: Logger): AppCaches {
  const feed = new ChangeFeed(connectionStringOf(db), logger);
  const ttlMs = config.CACHE_TTL_MS;
  if (ttlMs > 0) feed.start();
  return {
    feed,
    apiKeys: new ReadThroughCache<ApiKeyRow>(feed, { table: 'api_keys', ttlMs }),
    members: new ReadThroughCache<MemberRow>(feed, { table: 'members', ttlMs }),
    settings: new ReadThroughCache<OperatorSettings>(feed, { table: 'operator_settings', ttlMs }),
  };
}
