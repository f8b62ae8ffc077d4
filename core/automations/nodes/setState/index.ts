import { anyJson, need, text } from './checks';
import { objectOf, TEXT, type ActionModule } from './module';

/** `action.set_state`: as the data API's states; overwrites, and emits an event that may fire other workflows. */
export const setState: ActionModule = {
  label: 'Set a state',
  group: 'action',
  description: 'Sets a player state: balance, KYC status, risk score, loyalty tier.',
  defaults: { externalId: '{{ trigger.entity.externalId }}', key: 'risk_score', value: 80 },
  params: { externalId: need(text()), key: need(text()), value: need(anyJson) },
  branches: 'none',
  output: objectOf({ externalId: TEXT, key: TEXT, value: {} }, ['externalId', 'key']),
  effect: () => ({ readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false }),
};
