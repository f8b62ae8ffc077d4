import type { Logger } from 'pino';
import { internalEvent } from '../../core/events';
import type { Db } from '../../db/knex';
import { appendOutboxEvents } from '../../db/queries/outbox';

export interface GatewayCallRecord {
  operatorId: string;
  connectionId: string;
  operation: string;
  method: string | null;
  /** The provider's path template, never the filled path (values may be personal data). */
  path: string | null;
  /** The provider's HTTP status; `null` when it was not contacted or did not answer. */
  status: number | null;
  latencyMs: number;
  ok: boolean;
  /** Why the gateway refused or gave up, when the provider's status does not say it. */
  code?: string;
  attempts?: number;
}

/**
 * Logs one gateway call (ids, operation, method, path template, status, latency: never credentials or
 * bodies) and emits `gateway.request.completed` or `gateway.request.failed` to the outbox (spec 6.1).
 * Recording never fails the call: by now the provider may have acted, and the caller must hear how.
 */
export async function recordGatewayCall(deps: { db: Db; logger: Logger }, record: GatewayCallRecord): Promise<void> {
  const data = {
    connectionId: record.connectionId,
    operation: record.operation,
    method: record.method,
    path: record.path,
    status: record.status,
    latencyMs: record.latencyMs,
    ...(record.code ? { code: record.code } : {}),
  };
  deps.logger.info({ operatorId: record.operatorId, ...data, attempts: record.attempts, outcome: record.ok ? 'completed' : 'failed' }, 'gateway call');
  try {
    const event = internalEvent(record.operatorId, record.ok ? 'gateway.request.completed' : 'gateway.request.failed', null, data);
    await appendOutboxEvents(deps.db, [event]);
  } catch (error) {
    deps.logger.error(
      { err: { name: (error as Error).name, message: (error as Error).message }, connectionId: record.connectionId },
      'gateway event not recorded',
    );
  }
}
