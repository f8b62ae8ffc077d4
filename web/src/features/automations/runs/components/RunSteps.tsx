import type { components } from '../../../../api/schema';
import { StatusBadge } from '../../../../components/Status';
import { formatDateTime, formatDuration, pretty } from '../../../../format';
import { liveStatus, retryText, waitText } from './LiveStep';
import { SuppressedBadge } from './SuppressedBadge';
import { TruncatedValue, isTruncated } from './TruncatedValue';
import './runs.css';

type RunNode = components['schemas']['WorkflowRun']['nodes'][number];
type StepPart = { runId: string; nodeId: string; part: 'input' | 'output' };

/** One side of a step: a labelled, scrollable JSON value (its preview and a download when the record truncated it), or why there is none. */
function Value({ label, stepId, value, missing, step }: { label: string; stepId: string; value: unknown; missing: string; step: StepPart }) {
  return (
    <section className="run-step-value" aria-label={`${label} of ${stepId}`}>
      <h4>{label}</h4>
      {value === undefined ? (
        <p className="hint">{missing}</p>
      ) : isTruncated(value) ? (
        <TruncatedValue value={value} step={step} />
      ) : (
        <pre tabIndex={0}>{pretty(value)}</pre>
      )}
    </section>
  );
}

/** The branch a step took: a condition's yes or no, or whether a wait for an event saw it (`happened`) or timed out. */
function branchText(node: RunNode): string {
  const waited = typeof node.output === 'object' && node.output !== null && 'happened' in node.output;
  if (waited) return node.branch ? 'the event arrived' : 'timed out';
  return `took the ${node.branch ? 'yes' : 'no'} branch`;
}

/** A step's time: while the run lives, how long the step in flight has run so far, or what an ended one took. */
function durationText(node: RunNode, live: boolean): string {
  if (!live || !node.startedAt) return formatDuration(node.durationMs);
  return node.status === 'running' ? `· ${formatDuration(node.durationMs)} so far` : `· took ${formatDuration(node.durationMs)}`;
}

/**
 * A run's steps in order, each with its status and timing and, side by side, what it was given (an action's rendered
 * params, a condition's expression) and what it gave back or how it failed. The list keeps `run-nodes`, whose items
 * start with the step's id and status; a step the gate suppressed shows "suppressed · <rule>" instead of its
 * `completed`. While the run is `live` its steps come from its workflow: when each started, what the step in flight
 * waits for (until when) or how it retries; inputs and outputs are stored, and shown, once the run ends.
 */
export function RunSteps({ runId, nodes, triggerInput, live = false }: { runId: string; nodes: RunNode[]; triggerInput: unknown; live?: boolean }) {
  return (
    <ol className="run-nodes run-steps">
      {nodes.map((node, index) => {
        const trigger = index === 0 && node.input === undefined;
        const ran = node.status !== 'skipped';
        const step = (part: StepPart['part']): StepPart => ({ runId, nodeId: node.id, part });
        return (
          <li key={node.id} data-step={node.id}>
            <div className="run-step-head">
              <strong>{node.id}</strong> {node.suppressed ? <SuppressedBadge rule={node.suppressed.rule} /> : <StatusBadge status={liveStatus(node)} />}
              {node.startedAt && <span className="hint"> · started {formatDateTime(node.startedAt)}</span>}
              {node.waiting && <span className="hint"> · {waitText(node.waiting)}</span>}
              {node.retrying && <span className="hint"> · {retryText(node.retrying)}</span>}
              {node.branch !== undefined && !live && <span className="hint"> · {branchText(node)}</span>}
              {node.reused && <span className="hint"> · reused from the original run</span>} <span className="hint">{durationText(node, live)}</span>
            </div>
            {node.error && (
              <p className="field-error">
                {node.error.code}: {node.error.message}
              </p>
            )}
            {ran && live && !trigger && node.status !== 'running' && <p className="hint">Its input and output show once the run ends.</p>}
            {ran && !live && (
              <div className="run-step-io">
                <Value
                  label="Input"
                  stepId={node.id}
                  value={trigger ? triggerInput : node.input}
                  missing="Not recorded (runs recorded before inputs were kept)."
                  step={step(trigger ? 'output' : 'input')}
                />
                <Value label="Output" stepId={node.id} value={node.output} missing={node.error ? 'None: the step failed.' : 'None.'} step={step('output')} />
              </div>
            )}
          </li>
        );
      })}
    </ol>
  );
}
