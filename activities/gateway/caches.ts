import type { ChangeFeed } from '../../db/changeFeed';
import type { BreakerAdmission } from '../../db/queries/circuitBreakers';
import type { ConnectionForCall } from '../../db/queries/connections';
import { ReadThroughCache } from '../../db/readThroughCache';

/**
 * What a worker holds in memory for its gateway calls, so a call reads PostgreSQL once (its outbox row) instead of
 * three times: connections with whether their connector exists, by `<operatorId>:<connectionId>`, and breakers
 * that are closed with no failure counted, by `<operatorId>:<provider>`. Any change of an operator's connections,
 * connectors or breakers, by any process, drops all of that operator's entries when its notification arrives
 * (`cache_invalidation`); until then a call may still go out through a connection deactivated a moment ago, or to a
 * provider whose circuit another worker has just opened. While the feed is down, or with `CACHE_TTL_MS=0`, every
 * call reads through.
 */
export interface GatewayCaches {
  connections: ReadThroughCache<ConnectionForCall>;
  breakers: ReadThroughCache<BreakerAdmission>;
}

/** Entries per cache: an entry is a few hundred bytes (a connection holds its sealed credentials). */
const MAX_ENTRIES = 2_000;

export function createGatewayCaches(feed: Pick<ChangeFeed, 'live' | 'subscribe'>, ttlMs: number): GatewayCaches {
  return {
    connections: new ReadThroughCache(feed, { table: ['connections', 'connectors'], ttlMs, maxEntries: MAX_ENTRIES, scoped: true }),
    breakers: new ReadThroughCache(feed, { table: 'circuit_breakers', ttlMs, maxEntries: MAX_ENTRIES, scoped: true }),
  };
}

/** Only a closed breaker with nothing counted may be answered from memory: any other state is decided by the database. */
export const isCleanlyClosed = (breaker: BreakerAdmission) => breaker.admission === 'closed' && breaker.clean;
