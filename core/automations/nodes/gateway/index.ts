import { may, need, object, text } from '../checks';
import { MARKETING_PARAMS } from '../purpose';
import { objectOf, UNKNOWN_WRITE_OUTSIDE, type ActionModule } from '../module';
import { MARKETING_FIELDS } from '../editor';
import { flow } from './flow';

/** `action.gateway`: a supplier operation through the gateway, in the same run (workflows/gatewayCall.ts). */
export const gateway: ActionModule = {
  ...flow,
  label: 'Call a supplier',
  description: 'Calls a supplier through the gateway (Connections).',
  defaults: { connectionId: '', operation: '' },
  fields: [
    { kind: 'connection', name: 'connectionId', label: 'Connection' },
    { kind: 'text', name: 'operation', label: 'Operation', required: true, placeholder: 'kyc.status' },
    { kind: 'object', name: 'params', label: 'Parameters' },
    ...MARKETING_FIELDS,
  ],
  branchLabels: null,
  params: { connectionId: need(text()), operation: need(text()), params: may(object), ...MARKETING_PARAMS },
  output: objectOf({ status: { type: 'integer' }, data: {} }, ['status']),
  effect: () => UNKNOWN_WRITE_OUTSIDE,
  wouldDo: (p) => ({ method: p.operation, target: p.connectionId, template: p.params }),
};
