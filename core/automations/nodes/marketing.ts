import { isRecord, type ActionType } from '../types';
import type { MarketingOf, MarketingStep } from './flow';
import { NODE_FLOWS } from './flows';

export { CONSENT_CHANNELS, MARKETING_PURPOSES, STEP_PURPOSES, type ConsentChannel, type MarketingPurpose, type MarketingStep } from './flow';

/**
 * Which steps the responsible-gambling gate checks before they run (docs/compliance.md "Responsible-gambling gate"),
 * by action type: each type's `<type>/flow.ts` declares it (`marketing`), as workflow code reads it. The types that
 * take them declare the `purpose` and `channel` params this reads (./purpose.ts).
 */
export const MARKETING_OF: Record<ActionType, MarketingOf | null> = Object.fromEntries(
  Object.entries(NODE_FLOWS).flatMap(([type, flow]) => (flow.group === 'action' ? [[type, flow.marketing]] : [])),
) as Record<ActionType, MarketingOf | null>;

/** The output of a marketing step the gate suppressed (workflows/automation/gate.ts): part of an MCP tool's output schema. */
export const SUPPRESSED_OUTPUT_SCHEMA = {
  type: 'object' as const,
  properties: { suppressed: { const: true }, rule: { type: 'string' }, playerId: { type: ['string', 'null'] }, stateHash: { type: 'string' } },
  required: ['suppressed', 'rule', 'stateHash'],
};

/** Whether a step with these rendered params is a marketing action, and of which kind. */
export function marketingStepOf(type: ActionType, params: Record<string, unknown>): MarketingStep | null {
  return MARKETING_OF[type]?.(params) ?? null;
}

/**
 * The player a run's marketing steps address: the run's entity (the trigger event's `entity.externalId`), or a
 * `playerId` the trigger payload names (a manual or MCP run). Null when the run has neither: nothing to gate on.
 */
export function gatedPlayerOf(trigger: unknown): string | null {
  if (!isRecord(trigger)) return null;
  const entity = trigger.entity;
  if (isRecord(entity) && typeof entity.externalId === 'string' && entity.externalId) return entity.externalId;
  if (typeof trigger.playerId === 'string' && trigger.playerId) return trigger.playerId;
  return null;
}
