import { isRecord, type ActionType } from '../types';

/**
 * Which steps the responsible-gambling gate checks before they run (docs/compliance.md "Responsible-gambling gate"),
 * by action type. Apart from the modules for the same reason as ./branches.ts: workflow code reads it. The modules
 * declare the `purpose` and `channel` params this reads (./purpose.ts).
 */
export const MARKETING_PURPOSES = ['marketing', 'bonus'] as const;
export type MarketingPurpose = (typeof MARKETING_PURPOSES)[number];
/** `operational` (the default where a type takes it): not addressed to the player as an offer, so not gated. */
export const STEP_PURPOSES = [...MARKETING_PURPOSES, 'operational'] as const;
/** The consent flags of the `consent` state key, one per channel (`{ "email": true, "sms": false }`). */
export const CONSENT_CHANNELS = ['email', 'sms', 'push', 'phone'] as const;
export type ConsentChannel = (typeof CONSENT_CHANNELS)[number];

export interface MarketingStep {
  purpose: MarketingPurpose;
  /** The consent flag the step needs; null when the designer did not say: every flag must allow it. */
  channel: ConsentChannel | null;
}

type MarketingOf = (params: Record<string, unknown>) => MarketingStep | null;

const purposeOf = (params: Record<string, unknown>): MarketingPurpose | null =>
  (MARKETING_PURPOSES as readonly unknown[]).includes(params.purpose) ? (params.purpose as MarketingPurpose) : null;
const channelOf = (params: Record<string, unknown>): ConsentChannel | null =>
  (CONSENT_CHANNELS as readonly unknown[]).includes(params.channel) ? (params.channel as ConsentChannel) : null;

/** A step the designer marked `purpose: 'marketing'` or `'bonus'`. */
const marked: MarketingOf = (params) => {
  const purpose = purposeOf(params);
  return purpose ? { purpose, channel: channelOf(params) } : null;
};

export const MARKETING_OF: Record<ActionType, MarketingOf | null> = {
  'action.http_request': marked,
  'action.gateway': marked,
  'action.set_state': null,
  'action.record_event': null,
  'action.upsert_entity': null,
  'action.delay': null,
  /** An email always is: the gate cannot tell an offer from a notice by its text. */
  'action.send_email': (params) => ({ purpose: purposeOf(params) ?? 'marketing', channel: 'email' }),
  /** Text an AI writes for a player: marked by the designer like a supplier call. */
  'action.ai': marked,
  'action.approval': null,
  'action.wait_for_event': null,
};

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
