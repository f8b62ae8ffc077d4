import { may, need, object, text } from './checks';
import { MARKETING_PARAMS } from './purpose';
import { objectOf, UNKNOWN_WRITE_OUTSIDE, type ActionModule } from './module';

/** `action.gateway`: a supplier operation through the gateway, in the same run (workflows/gatewayCall.ts). */
export const gateway: ActionModule = {
  label: 'Call a supplier',
  group: 'action',
  description: 'Calls a supplier through the gateway (Connections).',
  defaults: { connectionId: '', operation: '' },
  params: { connectionId: need(text()), operation: need(text()), params: may(object), ...MARKETING_PARAMS },
  branches: 'none',
  output: objectOf({ status: { type: 'integer' }, data: {} }, ['status']),
  effect: () => UNKNOWN_WRITE_OUTSIDE,
};
