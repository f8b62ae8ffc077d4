import { may, need, text } from '../checks';
import { MARKETING_PARAMS } from '../purpose';
import { objectOf, READ_OUTSIDE, TEXT, type ActionModule } from '../module';
import { TEMPLATE_HINT, MARKETING_FIELDS } from '../editor';
import { flow } from './flow';

/** `action.ai`: an OpenAI-compatible model; one AI Action. */
export const ai: ActionModule = {
  ...flow,
  label: 'Ask an AI model',
  description: 'Asks an AI model; counts as an AI Action.',
  defaults: { prompt: 'Summarise this event: {{ $string(trigger) }}' },
  fields: [
    { kind: 'text', name: 'prompt', label: 'Prompt', required: true, multiline: true, hint: TEMPLATE_HINT },
    { kind: 'text', name: 'model', label: 'Model (optional)' },
    ...MARKETING_FIELDS,
  ],
  branchLabels: null,
  params: { prompt: need(text({ max: 100_000 })), model: may(text({ max: 200 })), ...MARKETING_PARAMS },
  output: objectOf({ text: TEXT, model: TEXT, usage: {} }, ['text', 'model', 'usage']),
  effect: () => READ_OUTSIDE,
  wouldDo: (p) => ({ method: 'AI', target: p.model ?? null, template: p.prompt }),
};
