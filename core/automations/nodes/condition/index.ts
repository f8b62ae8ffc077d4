import { expression, need } from './checks';
import type { NodeModule } from './module';

/** `condition`: a JSONata predicate; every edge leaving it follows its yes (`when: true`) or no branch. */
export const condition: NodeModule = {
  label: 'Condition',
  group: 'condition',
  description: 'Takes the “yes” or the “no” branch.',
  defaults: { expression: 'trigger.data.amount > 100000' },
  params: { expression: need(expression) },
  branches: 'required',
};
