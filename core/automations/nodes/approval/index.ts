import { DEFAULT_APPROVAL_TIMEOUT_SECONDS } from '../../approval';
import { integer, may, need, text } from '../checks';
import { objectOf, READ, type ActionModule } from '../module';
import { TEMPLATE_HINT } from '../editor';
import { flow } from './flow';

/** `action.approval`: waits for an Owner's, an Admin's or the agent's answer (workflows/automationRun.ts). */
export const approval: ActionModule = {
  ...flow,
  label: 'Ask for approval',
  description: 'Waits until an Owner or Admin (in the run) or the agent (through its MCP task) approves or refuses.',
  defaults: { message: 'Approve a bonus for {{ trigger.playerId }}?' },
  fields: [
    { kind: 'text', name: 'message', label: 'What to approve', required: true, multiline: true, hint: TEMPLATE_HINT },
    { kind: 'number', name: 'timeoutSeconds', label: 'Give up after (seconds)', min: 1, max: 2_592_000, hint: 'Refused when nobody answers; 1 day if empty' },
  ],
  branchLabels: null,
  params: { message: need(text({ max: 2_000 })), timeoutSeconds: may(integer(1, 2_592_000)) },
  output: objectOf({ approved: { type: 'boolean' }, answeredBy: {}, comment: {}, timedOut: { type: 'boolean' } }, ['approved', 'timedOut']),
  effect: () => READ,
  wouldDo: (p) => ({ method: 'APPROVAL', target: null, template: p.message }),
  holdsSeconds: (params) => Number(params.timeoutSeconds ?? DEFAULT_APPROVAL_TIMEOUT_SECONDS),
};
