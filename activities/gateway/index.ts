import { ApplicationFailure } from '@temporalio/activity';
import type { Logger } from 'pino';
import type { Config } from '../../core/config';
import type { Keyring } from '../../core/crypto';
import { nextTurn } from '../../core/eventLoop';
import type { Db } from '../../db/knex';
import type { ActivityMetrics } from '../metrics';
import { findConnection } from '../../db/queries/connections';
import { ANSWER_HANDOFF_MS, storeOutcome } from '../../db/queries/gatewayCalls';
import type { GatewayCallInput, GatewayCallResult, GatewayLimits } from '../../core/workflowContracts';
import { isIdempotentMethod, prepareGatewayCall } from './prepare';
import { sendGatewayRequest } from './send';
import type { GatewayCaches } from './caches';
import { sendClaimed } from './claim';
import type { ConnectorBlueprint, Delivery, PreparedGatewayCall } from './types';
import { PAUSES_ITSELF, type ActivityDeclarations } from '../declarations';

export type GatewayCallOutcome = { kind: 'sent'; result: GatewayCallResult } | { kind: 'prepared'; prepared: PreparedGatewayCall };

type Deps = { db: Db; config: Config; logger: Logger; keyring: Keyring; metrics: ActivityMetrics; gatewayCaches?: GatewayCaches };

/** What goes into gateway_calls of a call: its key and what it was. */
const callKey = (input: GatewayCallInput, method: string, keepMs: number) => ({
  operatorId: input.operatorId,
  callId: input.callId,
  connectionId: input.connectionId,
  operation: input.operation,
  method,
  keepMs,
});

/**
 * An `api` call's answer too large to travel back through Temporal (over half the payload limit, leaving room for the
 * rest of the result) waits in `gateway_calls` for the API instead; the result says so. Automation runs keep theirs:
 * the run needs it, and the payload codec bounds what reaches history.
 */
async function handOver(deps: Deps, input: GatewayCallInput, method: string, result: GatewayCallResult, stored: boolean): Promise<GatewayCallResult> {
  if (input.caller !== 'api') return result;
  const dataJson = JSON.stringify(result.data ?? null);
  if (dataJson.length <= deps.config.TEMPORAL_PAYLOAD_MAX_BYTES / 2) return result;
  await nextTurn();
  if (!stored) {
    const message = result.ok ? null : result.message;
    await storeOutcome(deps.db, deps.keyring, callKey(input, method, ANSWER_HANDOFF_MS), {
      ok: result.ok,
      status: result.status,
      dataJson,
      message,
      latencyMs: result.providerLatencyMs,
    });
  }
  return { ...result, data: null, answerStored: true };
}

/** The gateway's activities: resolve a call and send it when a repeat is harmless (local), or send a resolved POST once. */
export function createGatewayActivities(deps: Deps) {
  const logger = deps.logger.child({ area: 'gateway' });
  const connectors = new Map<string, ConnectorBlueprint>();
  const caches = deps.gatewayCaches;
  const sendDeps = { ...deps, logger, caches };
  return {
    /**
     * Resolves the call (spec 4.3 processing order) and sends it when its method is GET, PUT or DELETE; a POST
     * or PATCH comes back resolved (without credentials, since this travels through workflow history).
     */
    async gatewayCallLocal(input: GatewayCallInput & { limits: GatewayLimits }): Promise<GatewayCallOutcome> {
      const { limits, ...call } = input;
      const resolved = await prepareGatewayCall({ db: deps.db, logger, connectors, caches }, call);
      const { method } = resolved.prepared.plan;
      if (!isIdempotentMethod(method)) return { kind: 'prepared', prepared: resolved.prepared };
      const result = await sendGatewayRequest(sendDeps, { ...call, ...resolved, limits, idempotent: true });
      return { kind: 'sent', result: await handOver(deps, call, method, result, false) };
    },

    /**
     * Sends a resolved POST or PATCH, once: the workflow gives this activity a single attempt, a start deadline, and
     * `api` calls a `sendBy` past which nothing is sent. An `api` call is sent under its claimed call id (`sendClaimed`):
     * a second send of the same id gets the first one's outcome instead, and every call ends answered, `not_sent` (its
     * key free again) or `outcome_unknown`.
     */
    async sendPreparedGatewayCall(input: GatewayCallInput & { prepared: PreparedGatewayCall; limits: GatewayLimits }): Promise<GatewayCallResult> {
      if (input.sendBy !== undefined && Date.now() > input.sendBy)
        throw ApplicationFailure.create({ type: 'CALL_EXPIRED', message: 'Not sent: the caller stopped waiting for this call', nonRetryable: true });
      const connection = await findConnection(deps.db, input.operatorId, input.connectionId);
      if (!connection)
        throw ApplicationFailure.create({ type: 'CONNECTION_NOT_FOUND', message: `Connection ${input.connectionId} not found`, nonRetryable: true });
      const { method } = input.prepared.plan;
      const send = (delivery?: Delivery) =>
        sendGatewayRequest(sendDeps, { ...input, sealedCredentials: connection.credentials_ciphertext, idempotent: false, ...(delivery ? { delivery } : {}) });
      if (input.caller !== 'api') return send();
      return handOver(deps, input, method, await sendClaimed({ ...deps, logger }, { ...input, method }, send), true);
    },
  };
}

/** How each of these activities meets the budget of large data (../declarations.ts). */
export const GATEWAY_ACTIVITIES = {
  gatewayCallLocal: PAUSES_ITSELF,
  sendPreparedGatewayCall: PAUSES_ITSELF,
} satisfies ActivityDeclarations<typeof createGatewayActivities>;
