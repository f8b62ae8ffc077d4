import { checkMarketingGate, type MarketingGateInput, type MarketingGateVerdict } from '../../commands/compliance/gate';
import type { ActivityDeps } from '../deps';

/** The responsible-gambling gate as a local activity, run right before a marketing step (workflows/automation/actions.ts). */
export function createGateActivities({ db }: ActivityDeps) {
  return {
    async checkMarketingGate(input: MarketingGateInput): Promise<MarketingGateVerdict> {
      return checkMarketingGate({ db }, input);
    },
  };
}
