import { may, need, text } from './checks';
import { MARKETING_PARAMS } from './purpose';
import { objectOf, READ_OUTSIDE, TEXT, type ActionModule } from './module';

/** `action.ai`: an OpenAI-compatible model; one AI Action. */
export const ai: ActionModule = {
  label: 'Ask an AI model',
  group: 'action',
  description: 'Asks an AI model; counts as an AI Action.',
  defaults: { prompt: 'Summarise this event: {{ $string(trigger) }}' },
  params: { prompt: need(text({ max: 100_000 })), model: may(text({ max: 200 })), ...MARKETING_PARAMS },
  branches: 'none',
  output: objectOf({ text: TEXT, model: TEXT, usage: {} }, ['text', 'model', 'usage']),
  effect: () => READ_OUTSIDE,
};
