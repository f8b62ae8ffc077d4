import { NODE_MODULES } from './nodes';
import type { Param, Problems } from './nodes/checks';
import type { NodeType } from './types';

export { MAX_EXPRESSION_LENGTH, type Problems } from './nodes/checks';

/**
 * Checks a node's params against its type: exactly the params the type takes, each with its rule
 * (strings may embed `{{ }}` JSONata that must compile), problems named by field path.
 *
 * @example checkParams('action.delay', { seconds: 0 }, 'nodes[2].params', problems) // nodes[2].params.seconds: …
 */
export function checkParams(type: NodeType, params: Record<string, unknown>, field: string, problems: Problems): void {
  const spec: Record<string, Param> = NODE_MODULES[type].params;
  for (const key of Object.keys(params)) {
    if (!Object.hasOwn(spec, key)) problems.push({ field: `${field}.${key}`, message: 'unknown parameter' });
  }
  for (const [key, param] of Object.entries(spec)) {
    const value = params[key];
    if (!Object.hasOwn(params, key) || value === undefined) {
      if (param.required) problems.push({ field: `${field}.${key}`, message: 'is required' });
      continue;
    }
    param.check(value, `${field}.${key}`, problems);
  }
}
