import { need, text } from '../checks';
import { EMAIL_PURPOSE } from '../purpose';
import { objectOf, TEXT, type ActionModule } from '../module';
import { TEMPLATE_HINT } from '../editor';
import { flow } from './flow';

/** `action.send_email`: SMTP, or a file in development (activities/email). */
export const sendEmail: ActionModule = {
  ...flow,
  label: 'Send an email',
  description: 'Sends an email.',
  defaults: { to: 'ops@example.com', subject: 'Workflow alert', text: 'Player {{ trigger.entity.externalId }} needs a look.' },
  fields: [
    { kind: 'text', name: 'to', label: 'To', required: true, type: 'email', hint: TEMPLATE_HINT },
    { kind: 'text', name: 'subject', label: 'Subject', required: true },
    { kind: 'text', name: 'text', label: 'Message', required: true, multiline: true },
    {
      kind: 'select',
      name: 'purpose',
      label: 'Purpose (always gated)',
      optional: true,
      options: [
        ['', 'Marketing'],
        ['bonus', 'Bonus offer'],
      ],
    },
  ],
  branchLabels: null,
  params: {
    to: need(text({ max: 320, pattern: /^[^\s@]+@[^\s@]+$/, patternMessage: 'must be an email address' })),
    subject: need(text({ max: 998 })),
    text: need(text({ max: 100_000 })),
    ...EMAIL_PURPOSE,
  },
  output: objectOf({ delivery: { enum: ['smtp', 'file'] }, messageId: TEXT, file: TEXT }, ['delivery']),
  effect: () => ({ readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true }),
  wouldDo: (p) => ({ method: 'EMAIL', target: p.to, template: p.subject }),
};
