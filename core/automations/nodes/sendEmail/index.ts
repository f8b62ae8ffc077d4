import { need, text } from './checks';
import { EMAIL_PURPOSE } from './purpose';
import { objectOf, TEXT, type ActionModule } from './module';

/** `action.send_email`: SMTP, or a file in development (activities/email). */
export const sendEmail: ActionModule = {
  label: 'Send an email',
  group: 'action',
  description: 'Sends an email.',
  defaults: { to: 'ops@example.com', subject: 'Workflow alert', text: 'Player {{ trigger.entity.externalId }} needs a look.' },
  params: {
    to: need(text({ max: 320, pattern: /^[^\s@]+@[^\s@]+$/, patternMessage: 'must be an email address' })),
    subject: need(text({ max: 998 })),
    text: need(text({ max: 100_000 })),
    ...EMAIL_PURPOSE,
  },
  branches: 'none',
  output: objectOf({ delivery: { enum: ['smtp', 'file'] }, messageId: TEXT, file: TEXT }, ['delivery']),
  effect: () => ({ readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true }),
};
