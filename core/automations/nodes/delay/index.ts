import { integer, need } from '../checks';
import { objectOf, READ, type ActionModule } from '../module';
import { flow } from './flow';

/** `action.delay`: a durable Temporal timer; touches nothing. */
export const delay: ActionModule = {
  ...flow,
  label: 'Wait',
  description: 'Waits, durably, before the next step.',
  defaults: { seconds: 60 },
  fields: [{ kind: 'number', name: 'seconds', label: 'Seconds', min: 1, max: 2_592_000, hint: 'Up to 30 days' }],
  branchLabels: null,
  params: { seconds: need(integer(1, 2_592_000)) },
  output: objectOf({ waitedSeconds: { type: 'integer' } }, ['waitedSeconds']),
  effect: () => READ,
  wouldDo: (p) => ({ method: 'DELAY', target: null, template: p.seconds ?? null }),
  holdsSeconds: (params) => Number(params.seconds ?? 0),
};
