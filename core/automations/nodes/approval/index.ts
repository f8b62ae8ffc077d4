import { DEFAULT_APPROVAL_TIMEOUT_SECONDS } from '../approval';
import { integer, may, need, text } from './checks';
import { objectOf, READ, type ActionModule } from './module';

/** `action.approval`: waits for an Owner's, an Admin's or the agent's answer (workflows/automationRun.ts). */
export const approval: ActionModule = {
  label: 'Ask for approval',
  group: 'action',
  description: 'Waits until an Owner or Admin (in the run) or the agent (through its MCP task) approves or refuses.',
  defaults: { message: 'Approve a bonus for {{ trigger.playerId }}?' },
  params: { message: need(text({ max: 2_000 })), timeoutSeconds: may(integer(1, 2_592_000)) },
  branches: 'none',
  output: objectOf({ approved: { type: 'boolean' }, answeredBy: {}, comment: {}, timedOut: { type: 'boolean' } }, ['approved', 'timedOut']),
  effect: () => READ,
  holdsSeconds: (params) => Number(params.timeoutSeconds ?? DEFAULT_APPROVAL_TIMEOUT_SECONDS),
};
