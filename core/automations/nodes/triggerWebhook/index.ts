import { boolean, may, secret, text } from '../checks';
import { inputSchema } from '../triggerChecks';
import type { NodeModule } from '../module';
import { flow } from './flow';

/** `trigger.webhook`: a POST to `/webhook-receiver/<webhookId>`; the server sets `webhookId` and `hasSecret`. */
export const triggerWebhook: NodeModule = {
  ...flow,
  label: 'Webhook',
  description: 'Runs when a system POSTs JSON to this workflow’s webhook URL.',
  defaults: {},
  fields: [
    { kind: 'text', name: 'name', label: 'Name (optional)', hint: 'Also emits provider.webhook.<name> for other workflows' },
    { kind: 'secret', name: 'secret', label: 'Signing secret' },
    { kind: 'schema', name: 'inputSchema', label: 'Expected fields' },
  ],
  branchLabels: null,
  params: {
    secret: may(secret),
    inputSchema: may(inputSchema),
    name: may(text({ literal: true, pattern: /^[a-z0-9_-]{1,64}$/, patternMessage: 'must be 1 to 64 of a-z, 0-9, _ and -' })),
    webhookId: may(text({ literal: true, max: 200 })),
    hasSecret: may(boolean),
  },
};
