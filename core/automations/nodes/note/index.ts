import { need, text } from '../checks';
import { objectOf, READ, type ActionModule } from '../module';
import { TEMPLATE_HINT } from '../editor';
import { flow } from './flow';

/**
 * `action.note`: a note the designer leaves in the flow; it runs inside the workflow (./flow.ts), touches nothing and
 * is never gated. Its `text` may use `{{ }}` templates, rendered like any param, so a run shows what it noted.
 */
export const note: ActionModule = {
  ...flow,
  label: 'Note',
  description: 'Leaves a note in the run; does nothing else.',
  defaults: { text: 'Reached {{ trigger.entity.externalId }}' },
  fields: [{ kind: 'text', name: 'text', label: 'Note', required: true, multiline: true, hint: TEMPLATE_HINT }],
  branchLabels: null,
  params: { text: need(text({ max: 2_000 })) },
  output: objectOf({ noted: { const: true } }, ['noted']),
  effect: () => READ,
  wouldDo: (p) => ({ method: 'NOTE', target: null, template: p.text }),
};
