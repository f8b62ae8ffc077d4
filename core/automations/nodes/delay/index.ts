import { integer, need } from './checks';
import { objectOf, READ, type ActionModule } from './module';

/** `action.delay`: a durable Temporal timer; touches nothing. */
export const delay: ActionModule = {
  label: 'Wait',
  group: 'action',
  description: 'Waits, durably, before the next step.',
  defaults: { seconds: 60 },
  params: { seconds: need(integer(1, 2_592_000)) },
  branches: 'none',
  output: objectOf({ waitedSeconds: { type: 'integer' } }, ['waitedSeconds']),
  effect: () => READ,
  holdsSeconds: (params) => Number(params.seconds ?? 0),
};
