import { Handle, Position, type NodeProps } from '@xyflow/react';
import { createContext, useContext } from 'react';
import { SuppressedBadge } from '../../runs/components/SuppressedBadge';
import { CATALOG } from './catalog';
import type { StepNode } from './graph';
import { RunStatusContext, useProblems } from './problems';

/** The rule of each step the gate suppressed in the run shown on the canvas (RunDetail), by step id. */
export const RunSuppressionContext = createContext<Map<string, string>>(new Map());

const GROUP_LABEL = { trigger: 'Trigger', condition: 'Condition', action: 'Action' } as const;

/** One step on the canvas: its kind, id and a one-line summary, its problems and its status in the shown run. */
export function StepView({ id, data, selected }: NodeProps<StepNode>) {
  const spec = CATALOG[data.type];
  const problems = useProblems().byNode.get(id) ?? [];
  const status = useContext(RunStatusContext).get(id);
  const suppressedBy = useContext(RunSuppressionContext).get(id);
  const className = ['wf-node', `wf-node-${spec.group}`, selected ? 'selected' : '', problems.length > 0 ? 'has-error' : ''].filter(Boolean).join(' ');
  return (
    <div className={className} data-node-id={id}>
      {spec.group !== 'trigger' && <Handle type="target" position={Position.Left} />}
      <span className="kind">
        {GROUP_LABEL[spec.group]} · {spec.label}
      </span>
      <span className="node-id">{id}</span>
      <span className="node-summary">{spec.summary(data.params)}</span>
      {problems.length > 0 && (
        <span className="node-errors">
          {problems.length} problem{problems.length === 1 ? '' : 's'}
        </span>
      )}
      {status && (
        <span className="node-run">{suppressedBy ? <SuppressedBadge rule={suppressedBy} /> : <span className={`badge badge-${status}`}>{status}</span>}</span>
      )}
      {spec.branches ? (
        <>
          <Handle type="source" id="true" position={Position.Right} style={{ top: '30%' }} />
          <Handle type="source" id="false" position={Position.Right} style={{ top: '75%' }} />
          <span className="handle-label" style={{ left: 'calc(100% + 0.4rem)', top: '18%' }} aria-hidden="true">
            {spec.branches[0]}
          </span>
          <span className="handle-label" style={{ left: 'calc(100% + 0.4rem)', top: '64%' }} aria-hidden="true">
            {spec.branches[1]}
          </span>
        </>
      ) : (
        <Handle type="source" position={Position.Right} />
      )}
    </div>
  );
}
