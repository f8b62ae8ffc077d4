import { activityInfo } from '@temporalio/activity';
import type { Logger } from 'pino';
import type { Config } from '../../core/config';
import type { Keyring } from '../../core/crypto';
import type { Db } from '../../db/knex';
import type { GatewayCallInput, GatewayCallResult, GatewayLimits } from '../../workflows/contracts';
import { isIdempotentMethod, prepareGatewayCall } from './prepare';
import { recordGatewayCall } from './record';
import { sendGatewayRequest } from './send';

/** The gateway's activity: resolve a call and send it, retried by Temporal only where a repeat is harmless. */
export function createGatewayActivities(deps: { db: Db; config: Config; logger: Logger; keyring: Keyring }) {
  const logger = deps.logger.child({ area: 'gateway' });
  return {
    /**
     * One attempt of a gateway call (spec 4.3 processing order). A POST or PATCH is sent by the first
     * attempt only: a later one means the first may have reached the provider (a worker crash, a timeout),
     * so it answers with a provider error instead of sending again.
     */
    async gatewayCall(input: GatewayCallInput & { limits: GatewayLimits }): Promise<GatewayCallResult> {
      const { limits, ...call } = input;
      const prepared = await prepareGatewayCall({ db: deps.db, logger }, call);
      const idempotent = isIdempotentMethod(prepared.plan.method);
      const { attempt } = activityInfo();
      if (!idempotent && attempt > 1) {
        await recordGatewayCall({ db: deps.db, logger }, { ...call, method: prepared.plan.method, path: prepared.plan.pathTemplate, status: null, latencyMs: 0, ok: false, code: 'PROVIDER_UNREACHABLE', attempts: attempt });
        return { ok: false, status: null, data: null, message: `Not sent again: an earlier attempt of this ${prepared.plan.method} may have reached the provider`, providerLatencyMs: 0, attempts: attempt };
      }
      return sendGatewayRequest({ ...deps, logger }, { ...call, prepared, limits, idempotent });
    },
  };
}
