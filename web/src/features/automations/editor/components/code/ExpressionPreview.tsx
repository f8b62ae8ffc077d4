import { useEffect, useMemo, useState } from 'react';
import { useLoad } from '../../../../../api/useLoad';
import { formatDateTime } from '../../../../../format';
import { samplePayload, samplePlayer, useCodeScope, waitedEventSample } from './scope';
import { latestRun, previewExpression } from '../../api/editor';

/** `player` read at the root, as the server decides whether an expression reads the run's player. */
const READS_PLAYER = /(?<![\w$.])player(?![\w$])/;
const SAMPLE_PLAYER = samplePlayer();

/** How long typing must pause before the expression is evaluated again. */
const DEBOUNCE_MS = 400;

function useDebounced<T>(value: T, ms: number): T {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), ms);
    return () => clearTimeout(timer);
  }, [value, ms]);
  return settled;
}

const shown = (value: unknown): string => (value === undefined ? 'nothing' : JSON.stringify(value, null, 1).replace(/\n\s*/g, ' '));

/**
 * The live value of a condition or template next to its field, evaluated by the server in the expression sandbox
 * (`POST /workflows-api/expressions/preview`) as a run would: against a sample payload built from the trigger's
 * template (and a sample player when it reads `player`), or against the last run of this workflow (its trigger
 * payload, its steps' outputs and its player as the player is now).
 */
export function ExpressionPreview({
  expression,
  kind,
  id,
}: {
  expression: string;
  kind: 'condition' | 'template';
  /** The value's element, which describes the field. */ id: string;
}) {
  const scope = useCodeScope();
  const workflowId = scope?.workflowId;
  const [against, setAgainst] = useState<'sample' | 'run'>('sample');
  const lastRun = useLoad(async () => (workflowId ? latestRun(workflowId) : null), [workflowId]);
  const sample = useMemo(() => samplePayload(scope), [scope]);
  const event = useMemo(() => (kind === 'condition' ? waitedEventSample(scope) : undefined), [kind, scope]);
  const sampleKey = JSON.stringify([sample, event]);
  const settled = useDebounced(expression, DEBOUNCE_MS);
  const runId = against === 'run' ? lastRun.data?.id : undefined;
  const wanted = settled.trim() !== '' && (kind === 'condition' || settled.includes('{{'));
  const player = READS_PLAYER.test(settled) ? SAMPLE_PLAYER : undefined;
  const result = useLoad(async () => {
    if (!wanted) return null;
    const given = runId ? { runId } : { sample, ...(player ? { player } : {}) };
    const body = { expression: settled, kind, ...given, ...(event ? { event } : {}) };
    return previewExpression(body);
  }, [settled, kind, runId, sampleKey, wanted]);
  if (!wanted) return null;
  const stale = settled !== expression || result.loading;
  const outcome = result.data;
  return (
    <div className="code-preview">
      <output id={id} className={stale ? 'code-preview-value stale' : 'code-preview-value'} aria-live="polite" htmlFor={`${id}-against`}>
        {result.error ? (
          <span className="field-error">Preview unavailable: {result.error.message}</span>
        ) : !outcome ? (
          'Evaluating…'
        ) : outcome.ok ? (
          <>
            = <code>{shown(outcome.value)}</code>
          </>
        ) : (
          <span className="field-error">
            {outcome.code}: {outcome.message}
          </span>
        )}
      </output>
      <div className="code-preview-source">
        <label htmlFor={`${id}-against`}>Preview against</label>
        <select id={`${id}-against`} value={against} onChange={(event) => setAgainst(event.target.value as 'sample' | 'run')}>
          <option value="sample">a sample {String(sample.event ?? 'payload').replace(/^entity_event\./, '')}</option>
          {lastRun.data && <option value="run">the last run ({formatDateTime(lastRun.data.startedAt)})</option>}
        </select>
      </div>
      {against === 'sample' && (
        <details className="code-preview-sample">
          <summary>The sample</summary>
          {/* Focusable: a long sample scrolls, and a keyboard must reach what it scrolls to. */}
          <pre tabIndex={0} aria-label="The sample trigger">
            {JSON.stringify(sample, null, 2)}
          </pre>
          {player && (
            <>
              <p>The sample player (player)</p>
              <pre tabIndex={0} aria-label="The sample player">
                {JSON.stringify(player, null, 2)}
              </pre>
            </>
          )}
        </details>
      )}
    </div>
  );
}
