import { isTruncatedValue } from './automations/runValues';
import type { AutomationRunRecord } from './automations/types';
import { isPlainObject } from './mcpJsonRpc';

/** The subset of JSON Schema an MCP tool's `inputSchema` carries (spec 2.12: type, properties, required). */
export interface ToolInputSchema {
  type: 'object';
  properties: Record<string, unknown>;
  required: string[];
}

export interface ToolCallResult {
  content: Array<{ type: 'text'; text: string }>;
  /** A completed run's output when the tool has an `outputSchema`; the text then holds the same JSON (MCP 2025-06-18). */
  structuredContent?: Record<string, unknown>;
  isError: boolean;
  _meta: { execution_id: string | null; duration_ms: number };
}

function typeMatches(expected: string, value: unknown): boolean {
  switch (expected) {
    case 'string':
      return typeof value === 'string';
    case 'number':
      return typeof value === 'number' && Number.isFinite(value);
    case 'integer':
      return typeof value === 'number' && Number.isInteger(value);
    case 'boolean':
      return typeof value === 'boolean';
    case 'object':
      return isPlainObject(value);
    case 'array':
      return Array.isArray(value);
    case 'null':
      return value === null;
    default:
      return true;
  }
}

/**
 * Why `arguments` cannot be passed to the tool at all (`-32602`): not an object, or a present property of
 * the wrong JSON type or outside its `enum`. Only the top level is checked — nested shapes are the run's
 * business — and a missing required property is *not* reported here: it is the run's `MISSING_TRIGGER_FIELD`
 * result (spec 7.6), so it is recorded like any other failed run.
 *
 * @example argumentProblems({ type: 'object', properties: { playerId: { type: 'string' } }, required: [] }, { playerId: 7 }) // ['playerId must be of type string']
 */
export function argumentProblems(schema: ToolInputSchema, args: unknown): string[] {
  if (!isPlainObject(args)) return ['arguments must be an object'];
  const problems: string[] = [];
  for (const [name, value] of Object.entries(args)) {
    const property = schema.properties[name];
    if (!isPlainObject(property) || value === undefined) continue;
    const declared = property.type;
    const types = typeof declared === 'string' ? [declared] : Array.isArray(declared) ? declared.filter((t): t is string => typeof t === 'string') : [];
    if (types.length > 0 && !types.some((type) => typeMatches(type, value))) {
      problems.push(`${name} must be of type ${types.join(' or ')}`);
      continue;
    }
    if (Array.isArray(property.enum) && !property.enum.some((allowed) => JSON.stringify(allowed) === JSON.stringify(value))) {
      problems.push(`${name} must be one of ${property.enum.map((allowed) => JSON.stringify(allowed)).join(', ')}`);
    }
  }
  return problems;
}

/** A failed tool result whose text starts with the service code, e.g. `QUOTA_EXCEEDED: …` (spec 7.6). */
export function errorToolResult(code: string, message: string, executionId: string | null, durationMs: number): ToolCallResult {
  return {
    content: [{ type: 'text', text: `${code}: ${message}` }],
    isError: true,
    _meta: { execution_id: executionId, duration_ms: Math.max(0, Math.round(durationMs)) },
  };
}

/** A run still going when the call stops waiting: it carries on durably and can be read by its id. */
export function stillRunningToolResult(runId: string, elapsedMs: number): ToolCallResult {
  return errorToolResult('RUN_STILL_RUNNING', `Run ${runId} has not finished yet; read it with GET /workflows-api/runs/${runId}`, runId, elapsedMs);
}

/**
 * The `tools/call` result for a finished (or still running) run: a completed run's output as JSON text, and as
 * `structuredContent` when the tool declares an `outputSchema` (the output then is an object of that schema by
 * construction: core/automations/runOutput.ts); a failed run's error code and message; a cancelled run as
 * `RUN_CANCELLED`; a run still going after the wait as `RUN_STILL_RUNNING`, since the caller gets no answer it can
 * act on yet (the run carries on durably and can be read by its id).
 *
 * @example toolResultOf(run, 42, true) // { content: [{ type: 'text', text: '{"ok":true}' }], structuredContent: { ok: true }, isError: false, _meta: { execution_id: 'run_…', duration_ms: 40 } }
 */
export function toolResultOf(run: AutomationRunRecord, elapsedMs: number, structured = false): ToolCallResult {
  const durationMs = run.durationMs ?? elapsedMs;
  if (run.status === 'failed') {
    const error = run.error ?? { code: 'RUN_FAILED', message: 'The workflow run failed' };
    const where = error.nodeId ? ` (node ${error.nodeId})` : '';
    return errorToolResult(error.code, `${error.message}${where}`, run.id, durationMs);
  }
  if (run.status === 'cancelled') return errorToolResult('RUN_CANCELLED', `Run ${run.id} was cancelled before it finished`, run.id, durationMs);
  if (run.status === 'running') return stillRunningToolResult(run.id, durationMs);
  const output = run.output ?? null;
  if (isTruncatedValue(output)) {
    // Past what a run record holds inline (core/automations/runValues.ts): no tool result carries it, and its marker
    // would not match the tool's outputSchema. The agent is told where the whole output is.
    const step = [...run.nodes].reverse().find((node) => isTruncatedValue(node.output) && node.output.bytes === output.bytes);
    const where = step ? `GET /workflows-api/runs/${run.id}/steps/${step.id}/output` : `GET /workflows-api/runs/${run.id}`;
    return errorToolResult(
      'RUN_OUTPUT_TOO_LARGE',
      `The run's output is ${output.bytes} bytes, more than a tool result carries; read it whole with ${where}`,
      run.id,
      durationMs,
    );
  }
  return {
    content: [{ type: 'text', text: JSON.stringify(output) }],
    ...(structured && isPlainObject(output) ? { structuredContent: output } : {}),
    isError: false,
    _meta: { execution_id: run.id, duration_ms: Math.max(0, Math.round(durationMs)) },
  };
}
