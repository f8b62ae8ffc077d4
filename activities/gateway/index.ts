import { ApplicationFailure } from '@temporalio/activity';
import type { Logger } from 'pino';
import type { Config } from '../../core/config';
import type { Keyring } from '../../core/crypto';
import type { Db } from '../../db/knex';
import type { ActivityMetrics } from '../metrics';
import { findConnection } from '../../db/queries/connections';
import type { GatewayCallInput, GatewayCallResult, GatewayLimits } from '../../core/workflowContracts';
import { isIdempotentMethod, prepareGatewayCall } from './prepare';
import { sendGatewayRequest } from './send';
import type { ConnectorBlueprint, PreparedGatewayCall } from './types';

export type GatewayCallOutcome = { kind: 'sent'; result: GatewayCallResult } | { kind: 'prepared'; prepared: PreparedGatewayCall };

/** The gateway's activities: resolve a call and send it when a repeat is harmless (local), or send a resolved POST once. */
export function createGatewayActivities(deps: { db: Db; config: Config; logger: Logger; keyring: Keyring; metrics: ActivityMetrics }) {
  const logger = deps.logger.child({ area: 'gateway' });
  const connectors = new Map<string, ConnectorBlueprint>();
  return {
    /**
     * Resolves the call (spec 4.3 processing order) and sends it when its method is GET, PUT or DELETE; a POST
     * or PATCH comes back resolved (without credentials, since this travels through workflow history).
     */
    async gatewayCallLocal(input: GatewayCallInput & { limits: GatewayLimits }): Promise<GatewayCallOutcome> {
      const { limits, ...call } = input;
      const resolved = await prepareGatewayCall({ db: deps.db, logger, connectors }, call);
      if (!isIdempotentMethod(resolved.prepared.plan.method)) return { kind: 'prepared', prepared: resolved.prepared };
      return { kind: 'sent', result: await sendGatewayRequest({ ...deps, logger }, { ...call, ...resolved, limits, idempotent: true }) };
    },

    /** Sends a resolved POST or PATCH, once: the workflow gives this activity a single attempt. */
    async sendPreparedGatewayCall(input: GatewayCallInput & { prepared: PreparedGatewayCall; limits: GatewayLimits }): Promise<GatewayCallResult> {
      const connection = await findConnection(deps.db, input.operatorId, input.connectionId);
      if (!connection)
        throw ApplicationFailure.create({ type: 'CONNECTION_NOT_FOUND', message: `Connection ${input.connectionId} not found`, nonRetryable: true });
      return sendGatewayRequest({ ...deps, logger }, { ...input, sealedCredentials: connection.credentials_ciphertext, idempotent: false });
    },
  };
}
