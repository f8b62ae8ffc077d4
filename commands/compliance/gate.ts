import { complianceStateHash, gateDecision, type GateDecision } from '../../core/compliance/gate';
import { complianceSettingsOf } from '../../core/compliance/settings';
import type { MarketingStep } from '../../core/automations/nodes/marketing';
import { findComplianceSettings, readGateState, recordEvidence } from '../../db/queries/compliance';
import type { CommandDeps } from '../deps';

export interface MarketingGateInput {
  operatorId: string;
  workflowId: string;
  workflowVersion: number;
  runId: string;
  nodeId: string;
  actionType: string;
  step: MarketingStep;
  /** The run's player (core/automations/nodes/marketing.ts `gatedPlayerOf`); null when the run has none. */
  playerId: string | null;
}

export interface MarketingGateVerdict {
  rule: GateDecision;
  playerId: string | null;
  stateHash: string;
}

/**
 * The responsible-gambling gate for one marketing step, at the moment it runs (docs/compliance.md): reads the
 * player's compliance and consent state and the operator's settings, decides, and appends the decision to
 * `marketing_evidence` before the step may act. A run without a player, or whose player is unknown, has no state
 * to read: its step is allowed and recorded with the hash of the empty state.
 */
export async function checkMarketingGate(deps: Pick<CommandDeps, 'db'>, input: MarketingGateInput): Promise<MarketingGateVerdict> {
  const settings = complianceSettingsOf(await findComplianceSettings(deps.db, input.operatorId));
  const state = input.playerId
    ? await readGateState(deps.db, input.operatorId, input.playerId, settings.rules.depositLimit ? settings.depositLimitHours : null)
    : null;
  const rule = state?.entity_id
    ? gateDecision(
        {
          compliance: state.compliance,
          consent: state.consent,
          status: state.status,
          jurisdiction: state.jurisdiction,
          lastHarmAt: state.last_harm_at,
          depositedInLimitWindow: Number(state.deposited ?? 0),
          now: new Date(),
        },
        input.step,
        settings,
      )
    : 'allowed';
  const stored = await recordEvidence(deps.db, {
    operatorId: input.operatorId,
    automationId: input.workflowId,
    automationVersion: input.workflowVersion,
    runId: input.runId,
    nodeId: input.nodeId,
    actionType: input.actionType,
    purpose: input.step.purpose,
    rule,
    playerId: input.playerId,
    stateHash: complianceStateHash(state?.compliance, state?.consent),
  });
  return { rule: stored.rule as GateDecision, playerId: stored.player_id, stateHash: stored.state_hash };
}
