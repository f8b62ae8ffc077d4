import type { NodeResult } from './types';

/**
 * A step the responsible-gambling gate suppressed (docs/compliance.md), as a run record names it beside the step's
 * status: the spec fixes node statuses (`completed`, `failed`, `skipped`, `cancelled`) and a suppressed step
 * completes, so the suppression is its own field, `suppressed: { rule }`, kept in the clear (a rule name quotes no
 * data) so lists can show and filter it without opening the sealed output.
 */
export interface Suppression {
  rule: string;
}

/**
 * The suppression a step's output records: the gate's output (workflows/automation/gate.ts) is
 * `{ suppressed: true, rule, playerId, stateHash }`; nothing else a step returns has that shape at its top level.
 *
 * @example suppressionOf({ suppressed: true, rule: 'self_excluded', playerId: 'p-1', stateHash: 'ab…' }) // { rule: 'self_excluded' }
 */
export function suppressionOf(output: unknown): Suppression | undefined {
  if (typeof output !== 'object' || output === null || Array.isArray(output)) return undefined;
  const record = output as Record<string, unknown>;
  return record.suppressed === true && typeof record.rule === 'string' && typeof record.stateHash === 'string' ? { rule: record.rule } : undefined;
}

/** A node result with its suppression named, read from its output when it was stored without one (runs before the field). */
export function withSuppression(node: NodeResult): NodeResult {
  if (node.suppressed) return node;
  const suppressed = suppressionOf(node.output);
  return suppressed ? { ...node, suppressed } : node;
}
