import type { Keyring } from './crypto';
import { isSealedText, isTooLarge, openText, sealText } from './sealedText';
import { INLINE_VALUE_BYTES, RECORD_OPEN_MAX_BYTES, truncatedValue, type TruncatedValue } from './automations/runValues';
import { suppressionOf } from './automations/suppression';
import { isRecord, type NodeResult, type RunError } from './automations/types';

/**
 * Run records at rest (docs/security.md "Run records"). A run's trigger payload is sealed into `input` when it
 * begins, and what it produced — the run's output, every node's input, output and error, the run error's message —
 * into one ciphertext in `output` when it ends: one encryption per write. What stays in the clear is what a list of
 * runs shows: each node's id, status and duration (and a condition's branch), and the run error's code and node. Both ciphertexts are bound to the
 * operator and the run id, so one cannot be moved to another run or tenant and still open.
 */

/** A run's sealed parts, as `output` holds them: the output and, by node id, each node's input, output and error. */
interface SealedResult {
  output: unknown;
  nodes: Record<string, { input?: unknown; output?: unknown; error?: RunError }>;
  errorMessage: string | null;
}

export interface StoredRunParts {
  input: unknown;
  output: unknown;
  nodes: NodeResult[];
  error: RunError | null;
}

const contextOf = (operatorId: string, runId: string, part: 'input' | 'result') => `${operatorId}:run:${runId}:${part}`;

/** The marker erasure leaves in a run's sealed parts (`{ _redacted: true }`, as on erased events). */
export const REDACTED = Object.freeze({ _redacted: true });

/** Seals a run's trigger payload (deflated first when large: `core/sealedText.ts`). */
export function sealRunInput(keyring: Keyring, operatorId: string, runId: string, input: unknown): Promise<string> {
  return sealText(keyring, JSON.stringify(input ?? null), contextOf(operatorId, runId, 'input'));
}

const openJson = async (keyring: Keyring, sealed: string, context: string): Promise<unknown> => JSON.parse(await openText(keyring, sealed, context));

/** Splits a finished run's outcome into what is stored in the clear and one ciphertext of the rest (deflated first when large). */
export async function sealRunResult(
  keyring: Keyring,
  operatorId: string,
  runId: string,
  result: { output: unknown; nodes: NodeResult[]; error: RunError | null },
) {
  const sealed: SealedResult = { output: result.output ?? null, nodes: {}, errorMessage: result.error?.message ?? null };
  for (const node of result.nodes) {
    if (node.input !== undefined || node.output !== undefined || node.error !== undefined)
      sealed.nodes[node.id] = {
        ...(node.input !== undefined ? { input: node.input } : {}),
        ...(node.output !== undefined ? { output: node.output } : {}),
        ...(node.error ? { error: node.error } : {}),
      };
  }
  return {
    output: await sealText(keyring, JSON.stringify(sealed), contextOf(operatorId, runId, 'result')),
    nodes: result.nodes.map(nodeSummary),
    error: result.error ? errorSummary(result.error) : null,
  };
}

/** A node as a list shows it: no input, output or error text; a condition's branch and a suppression's rule, which quote no data. */
export function nodeSummary(node: NodeResult): NodeResult {
  const suppressed = node.suppressed ?? suppressionOf(node.output);
  return {
    id: node.id,
    status: node.status,
    ...(node.branch !== undefined ? { branch: node.branch } : {}),
    durationMs: node.durationMs,
    ...(node.reused ? { reused: true as const } : {}),
    ...(suppressed ? { suppressed: { rule: suppressed.rule } } : {}),
  };
}

/** What a list shows of a run error instead of its message, which may quote the data. */
export const SEALED_MESSAGE = 'Sealed: read this run (GET /workflows-api/runs/:runId) for the message';

/** A run error as stored in the clear: its code and node; the message is sealed with the result. */
export function errorSummary(error: RunError): Omit<RunError, 'message'> {
  return { code: error.code, ...(error.nodeId !== undefined ? { nodeId: error.nodeId } : {}) };
}

/** What a record's part reads as when it opened to more than a read may hold (a record written before values were stored apart). */
const unreadable = (): TruncatedValue => ({ _truncated: true, bytes: RECORD_OPEN_MAX_BYTES, preview: '' });

/**
 * A sealed trigger payload, opened within {@link RECORD_OPEN_MAX_BYTES}: one larger than {@link INLINE_VALUE_BYTES}
 * is its {@link TruncatedValue}, never parsed (the trigger step's output, streamed apart, holds it whole).
 */
async function openInput(keyring: Keyring, sealed: string, context: string, whole: boolean): Promise<unknown> {
  if (whole) return openJson(keyring, sealed, context);
  try {
    const text = await openText(keyring, sealed, context, RECORD_OPEN_MAX_BYTES);
    return text.length > INLINE_VALUE_BYTES ? truncatedValue(text) : (JSON.parse(text) as unknown);
  } catch (error) {
    if (isTooLarge(error)) return unreadable();
    throw error;
  }
}

/**
 * Opens a stored run for the one caller allowed to read it whole. Rows written before sealing (plaintext
 * `input`, `output`, `nodes`, `error`) and rows erasure redacted read as they are stored. A read is bounded
 * (core/automations/runValues.ts): the result part opens to at most {@link RECORD_OPEN_MAX_BYTES} — an older record
 * larger than that reads with its run output {@link unreadable} and its steps' values left out — and a large trigger
 * payload reads truncated. `whole` (a rerun reusing the payload) opens the payload whole.
 */
export async function openRunParts(
  keyring: Keyring,
  operatorId: string,
  runId: string,
  stored: StoredRunParts,
  options: { whole?: boolean } = {},
): Promise<StoredRunParts> {
  const input = isSealedText(stored.input)
    ? await openInput(keyring, stored.input, contextOf(operatorId, runId, 'input'), options.whole === true)
    : stored.input;
  if (!isSealedText(stored.output)) {
    return { input, output: stored.output, nodes: stored.nodes, error: stored.error ? { ...stored.error, message: stored.error.message ?? '' } : null };
  }
  let sealed: SealedResult;
  try {
    sealed = JSON.parse(await openText(keyring, stored.output, contextOf(operatorId, runId, 'result'), RECORD_OPEN_MAX_BYTES)) as SealedResult;
  } catch (error) {
    if (!isTooLarge(error)) throw error;
    sealed = { output: unreadable(), nodes: {}, errorMessage: null };
  }
  return {
    input,
    output: sealed.output,
    nodes: stored.nodes.map((node) => ({ ...node, ...sealed.nodes[node.id] })),
    error: stored.error ? { ...stored.error, message: sealed.errorMessage ?? '' } : null,
  };
}

/** Bounds on the strings a payload is searched for entity ids: enough for any trigger payload, cheap for huge ones. */
const SUBJECT_SEARCH = { depth: 6, strings: 200, length: 256 };

/**
 * The values of a trigger payload that may name an entity: every string or number (in objects and arrays) up to a
 * bounded depth and count, `entity.externalId` of an internal event first. The caller keeps those that are the
 * external id or the id of an entity of the operator (db/queries/automationRuns.ts): a run is about every entity its
 * payload names by value, under any key, whatever the trigger (docs/security.md "Which runs erasure reaches").
 */
export function runSubjectCandidates(payload: unknown): string[] {
  const found = new Set<string>();
  if (isRecord(payload) && isRecord(payload.entity) && typeof payload.entity.externalId === 'string') found.add(payload.entity.externalId);
  const visit = (value: unknown, depth: number): void => {
    if (found.size >= SUBJECT_SEARCH.strings) return;
    if (typeof value === 'string') {
      if (value !== '' && value.length <= SUBJECT_SEARCH.length) found.add(value);
    } else if (typeof value === 'number' && Number.isFinite(value)) {
      found.add(String(value));
    } else if (depth < SUBJECT_SEARCH.depth && (Array.isArray(value) || isRecord(value))) {
      for (const child of Array.isArray(value) ? value : Object.values(value)) visit(child, depth + 1);
    }
  };
  visit(payload, 0);
  return [...found];
}
