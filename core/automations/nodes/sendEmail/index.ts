import { need, text } from '../checks';
import { EMAIL_PURPOSE } from '../purpose';
import { objectOf, TEXT, type ActionModule } from '../module';
import { flow } from './flow';

/** `action.send_email`: SMTP, or a file in development (activities/email). */
export const sendEmail: ActionModule = {
  ...flow,
  label: 'Send an email',
  description: 'Sends an email.',
  /**
   * A message to the player the run is about: an email step is marketing, gated for that player (docs/compliance.md),
   * so its default addresses the player — `player.email` from the run's player snapshot, which every run about a player
   * has (a deposit's as well as a player event's; docs/workflows.md "The player in a run") — and not a staff address
   * the gate would suppress for an excluded player.
   */
  defaults: { to: '{{ player.email }}', subject: 'A message for you', text: 'Hello {{ player.first_name }},\n\n' },
  fields: [
    {
      kind: 'text',
      name: 'to',
      label: 'To',
      required: true,
      type: 'email',
      hint: "The player's email: {{ player.email }}, in any run about a player (a deposit, a player event, a test run with a playerId). A staff alert goes to a fixed address (ops@your-casino.com) — but it is gated for the run's player like any email; an HTTP request to your staff channel is not.",
    },
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
