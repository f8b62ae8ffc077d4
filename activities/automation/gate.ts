import { checkMarketingGate, type MarketingGateInput, type MarketingGateVerdict } from '../../commands/compliance/gate';
import type { ActivityDeps } from '../deps';
import { BOOKKEEPING, type ActivityDeclarations } from '../declarations';

/** The responsible-gambling gate as a local activity, run right before a marketing step (workflows/automation/actions.ts). */
export function createGateActivities({ db }: ActivityDeps) {
  return {
    async checkMarketingGate(input: MarketingGateInput): Promise<MarketingGateVerdict> {
      return checkMarketingGate({ db }, input);
    },
  };
}

/** How each of these activities meets the budget of large data (../declarations.ts). */
export const GATE_ACTIVITIES = {
  checkMarketingGate: BOOKKEEPING,
} satisfies ActivityDeclarations<typeof createGateActivities>;
