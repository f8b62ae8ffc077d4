import { expression, need } from '../checks';
import type { NodeModule } from '../module';
import { flow } from './flow';

/** `condition`: a JSONata predicate; every edge leaving it follows its yes (`when: true`) or no branch. */
export const condition: NodeModule = {
  ...flow,
  label: 'Condition',
  description: 'Takes the “yes” or the “no” branch.',
  defaults: { expression: 'trigger.data.amount > 100000' },
  fields: [
    {
      kind: 'expression',
      name: 'expression',
      label: 'Condition',
      required: true,
      placeholder: 'trigger.data.amount > 100000',
      hint: 'JSONata: trigger is the event or input; nodes.<id> is a node’s output',
    },
  ],
  branchLabels: ['yes', 'no'],
  params: { expression: need(expression) },
};
