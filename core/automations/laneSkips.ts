import type { RunControl, SkipReason } from './runControl';

/** What a key's lane held back (every lane reason but the dispatcher's `key_error`): recorded as a skipped trigger. */
export type LaneSkipReason = Exclude<SkipReason, 'key_error'>;

/**
 * One trigger the lane held back, handed by the lane's workflow to the `recordLaneSkips` activity, which seals its key
 * and message and records it (docs/workflows.md "Skipped triggers").
 */
export interface LaneSkip {
  eventId: string;
  event: string;
  /** The trigger node that heard the event. */
  nodeId: string | null;
  /** The automation's version when the event was dispatched (absent from triggers handed over before it was sent). */
  workflowVersion?: number;
  /** The run-control key; personal data, sealed before it is stored. */
  key?: string;
  reason: LaneSkipReason;
  /** When the lane decided (epoch ms, the workflow's clock). */
  at: number;
  /** The run control the trigger came with, so the message names the rule that held it back. */
  control: RunControl;
  /** `debounced`: the later event of the same key that took its place. */
  supersededBy?: string;
}

/** The record's `code` for each lane reason. */
export const LANE_SKIP_CODES: Record<LaneSkipReason, string> = {
  throttled: 'THROTTLED',
  debounced: 'DEBOUNCED',
  busy: 'BUSY',
  queue_full: 'QUEUE_FULL',
  replaced: 'REPLACED',
  cancelled: 'CANCELLED',
};

const plural = (count: number, one: string) => `${count} ${one}${count === 1 ? '' : 's'}`;

/**
 * The rule that held the trigger back, in the designer's words.
 *
 * @example laneSkipMessage({ reason: 'throttled', control: { throttle: { limit: 2, period_seconds: 60 } }, ... }) // 'Over the throttle: 2 triggers per 60 s for this key'
 */
export function laneSkipMessage(skip: Pick<LaneSkip, 'reason' | 'control' | 'supersededBy'>): string {
  const { throttle, debounce, concurrency } = skip.control;
  const slots = concurrency ? ` (${plural(concurrency.limit, 'run')} at a time per key, when busy: ${concurrency.when_busy})` : '';
  switch (skip.reason) {
    case 'throttled':
      return throttle ? `Over the throttle: ${plural(throttle.limit, 'trigger')} per ${throttle.period_seconds} s for this key` : 'Over the throttle';
    case 'debounced':
      return `Superseded by a later event of the same key${skip.supersededBy ? ` (${skip.supersededBy})` : ''} within the debounce${debounce ? ` of ${debounce.quiet_seconds} s` : ''}`;
    case 'busy':
      return `Skipped: the key's runs were all busy${slots}`;
    case 'queue_full':
      return `Skipped: the key's queue was full${slots}`;
    case 'replaced':
      return `Replaced in the key's queue by a later trigger${slots}`;
    case 'cancelled':
      return "Dropped while waiting: a cancel_on event ended the key's runs";
  }
}
