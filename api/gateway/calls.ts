import { findGatewayCall, outcomeOf } from '../../db/queries/gatewayCalls';
import { AppError } from '../errors';
import { GatewayCallParams } from './schema';
import { gateway } from './area';

/**
 * `GET /gateway/calls/:callId`: the recorded outcome of a POST or PATCH of `POST /gateway` (kept 24 hours), for a
 * client that was answered 504 `GATEWAY_OUTCOME_UNKNOWN` or lost its answer: `sending` while it is on its way,
 * `answered` with the provider's status and translated answer, `not_sent` or `outcome_unknown` with the reason — a
 * final state either way. Calls of other operators, GETs, PUTs and DELETEs (safe to repeat, never recorded) and calls
 * refused before they were claimed (validation, an unknown operation) are 404 `GATEWAY_CALL_NOT_FOUND`.
 */
export const gatewayCallHandler = gateway.handler({ input: { params: GatewayCallParams } }, async ({ deps, ctx, input: { params }, principal }) => {
  const row = await findGatewayCall(deps.db, principal.operatorId, params.callId);
  if (!row || !['POST', 'PATCH'].includes(row.method)) throw new AppError(404, 'GATEWAY_CALL_NOT_FOUND', 'Gateway call not found');
  const outcome = row.state === 'answered' ? await outcomeOf(row, deps.keyring) : null;
  ctx.body = {
    success: true,
    data: {
      callId: row.id,
      state: row.state,
      connectionId: row.connection_id,
      operation: row.operation,
      method: row.method,
      createdAt: row.created_at.toISOString(),
      finishedAt: row.finished_at?.toISOString() ?? null,
      outcome: outcome && {
        ok: outcome.ok,
        status: outcome.status,
        data: JSON.parse(outcome.dataJson) as unknown,
        message: outcome.message,
        latencyMs: outcome.latencyMs,
      },
      error: row.code === null ? null : { code: row.code, message: row.message ?? '' },
    },
  };
});
