/**
 * What workflow code reads of a node type, declared in the type's folder (`<type>/flow.ts`) beside the rest of it
 * (`<type>/index.ts`). Kept apart because the automation-run workflow imports it: these files import nothing but this
 * one, so no JSONata compiler, cron parser or Node API enters the workflow bundle with them. Every declaration must be
 * deterministic: no clock, no randomness, no I/O.
 */

/** Where the dashboard's palette lists a node type; which union (`TriggerType`, `ActionType`) it belongs to. */
export type NodeGroup = 'trigger' | 'condition' | 'action';

/**
 * Which edges may leave a node: `required` — every edge carries `when` (a condition's yes/no); `optional` — an edge
 * may carry `when` to follow one outcome and one without it is always taken (`action.wait_for_event`); `none`.
 */
export type EdgeBranches = 'required' | 'optional' | 'none';

/** The branch (`when`) a completed node's output takes. */
export type BranchOf = (output: unknown) => boolean;

/** A type whose edges branch names the branch each output takes; one whose edges do not, none. */
type Branching = { branches: 'none'; branchOf: null } | { branches: 'required' | 'optional'; branchOf: BranchOf };

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

/** Whether a step with these rendered params is one the responsible-gambling gate checks (docs/compliance.md). */
export type MarketingOf = (params: Record<string, unknown>) => MarketingStep | null;

export const purposeOf = (params: Record<string, unknown>): MarketingPurpose | null =>
  (MARKETING_PURPOSES as readonly unknown[]).includes(params.purpose) ? (params.purpose as MarketingPurpose) : null;
const channelOf = (params: Record<string, unknown>): ConsentChannel | null =>
  (CONSENT_CHANNELS as readonly unknown[]).includes(params.channel) ? (params.channel as ConsentChannel) : null;

/** A step the designer marked `purpose: 'marketing'` or `'bonus'` (the params of ../purpose.ts `MARKETING_PARAMS`). */
export const markedByDesigner: MarketingOf = (params) => {
  const purpose = purposeOf(params);
  return purpose ? { purpose, channel: channelOf(params) } : null;
};

/**
 * An action that runs inside the workflow itself, from its rendered params alone, with no activity: it must be
 * deterministic and touch nothing (`action.note`). An action that does work has no inline run: its runner lives in
 * workflows/automation/actions.ts, whose table the compiler makes name every such type.
 */
export type InlineRun = (params: Record<string, unknown>) => unknown;

export type TriggerFlow = Branching & { group: 'trigger' };
export type ConditionFlow = Branching & { group: 'condition' };
export type ActionFlow = Branching & {
  group: 'action';
  /** Which steps the gate checks before they run; null: never a marketing step. */
  marketing: MarketingOf | null;
  inline: InlineRun | null;
};
export type NodeFlow = TriggerFlow | ConditionFlow | ActionFlow;

/** The branching of a type whose edges never branch. */
export const NO_BRANCHES = { branches: 'none', branchOf: null } as const;

export const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
