import { anyJson, need, text } from '../checks';
import { objectOf, TEXT, type ActionModule } from '../module';
import { TEMPLATE_HINT } from '../editor';
import { flow } from './flow';

/** `action.set_state`: as the data API's states; overwrites, and emits an event that may fire other workflows. */
export const setState: ActionModule = {
  ...flow,
  label: 'Set a state',
  description: 'Sets a player state: balance, KYC status, risk score, loyalty tier.',
  defaults: { externalId: '{{ trigger.entity.externalId }}', key: 'risk_score', value: 80 },
  fields: [
    { kind: 'text', name: 'externalId', label: 'Player', required: true, hint: TEMPLATE_HINT },
    { kind: 'text', name: 'key', label: 'State', required: true, suggestions: 'stateKeys' },
    { kind: 'value', name: 'value', label: 'Value', required: true, hint: 'A number, true/false, text, or {{ expression }}' },
  ],
  branchLabels: null,
  params: { externalId: need(text()), key: need(text()), value: need(anyJson) },
  output: objectOf({ externalId: TEXT, key: TEXT, value: {} }, ['externalId', 'key']),
  effect: () => ({ readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false }),
  wouldDo: (p) => ({ method: 'SET_STATE', target: p.key, template: p.value }),
};
