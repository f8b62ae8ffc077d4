import type { Logger } from 'pino';
import type { Config } from '../../core/config';
import type { Keyring } from '../../core/crypto';
import type { Db } from '../../db/knex';
import { prepareGatewayCall } from './prepare';
import { sendGatewayRequest } from './send';
import type { GatewayCallInput, SendGatewayRequestInput } from './types';

/** The gateway's activities: resolve a call (local activity, database only), then send it (retried only where safe). */
export function createGatewayActivities(deps: { db: Db; config: Config; logger: Logger; keyring: Keyring }) {
  const logger = deps.logger.child({ area: 'gateway' });
  return {
    prepareGatewayCall: (input: GatewayCallInput) => prepareGatewayCall({ db: deps.db, logger }, input),
    sendGatewayRequest: (input: SendGatewayRequestInput) => sendGatewayRequest({ ...deps, logger }, input),
  };
}
