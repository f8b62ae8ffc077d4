import type { Edge } from '@xyflow/react';
import { useEffect, useMemo, useRef, useState, type Dispatch, type SetStateAction } from 'react';
import type { FieldProblem } from '../../../../api/errors';
import { TextField } from '../../../../components/Field';
import { connectable } from './Canvas';
import { CATALOG, type Params } from './catalog';
import { CodeScopeContext } from './code/scope';
import { edgeId, paramOf, type StepNode } from './graph';
import { ParamField } from './ParamField';
import { useProblems } from './problems';

interface Props {
  nodes: StepNode[];
  edges: Edge[];
  setNodes: Dispatch<SetStateAction<StepNode[]>>;
  setEdges: Dispatch<SetStateAction<Edge[]>>;
  selected: string | null;
  /** `focusForm` moves the keyboard into the chosen step's form (a pick from the Steps list). */
  onSelect: (id: string | null, focusForm?: boolean) => void;
  /** Deletes a step, after asking. */
  onRemove: (id: string) => void;
  /** Changes each time the selected step's form should take the keyboard focus. */
  focusForm: number;
  editable: boolean;
  /** The saved workflow's id: previews can then use its last run. */
  workflowId?: string;
}

const NODE_ID = /^[A-Za-z0-9_-]{1,64}$/;

/** The selected step's form (its params, id and connections), or the selected edge. Everything the canvas does by mouse can be done here by keyboard. */
export function Inspector(props: Props) {
  const { nodes, edges, selected } = props;
  const node = nodes.find((candidate) => candidate.id === selected);
  const edge = edges.find((candidate) => candidate.id === selected);
  return (
    <aside className="inspector" aria-label="Selected step">
      {node ? <NodeForm key={node.id} node={node} {...props} /> : edge ? <EdgeInfo edge={edge} {...props} /> : <Overview {...props} />}
    </aside>
  );
}

function Overview({ nodes, onSelect }: Props) {
  const problems = useProblems();
  return (
    <>
      <h2>Steps</h2>
      <p className="hint">
        Select a step on the graph or here to edit it. Add steps from “Add a step”; connect them by dragging from a step's right edge to another's left edge, or
        from the step's form.
      </p>
      <ul>
        {nodes.map((step) => (
          <li key={step.id}>
            <button type="button" className="link-button" onClick={() => onSelect(step.id, true)}>
              {step.id}
            </button>{' '}
            <span className="hint">{CATALOG[step.data.type].label}</span>
            {problems.byNode.has(step.id) && <span className="field-error"> · {problems.byNode.get(step.id)?.length} problem(s)</span>}
          </li>
        ))}
      </ul>
    </>
  );
}

function EdgeInfo({ edge, setEdges, onSelect, editable }: Props & { edge: Edge }) {
  const problems = useProblems().byEdge.get(edge.id) ?? [];
  return (
    <>
      <h2>Connection</h2>
      <p>
        From <strong>{edge.source}</strong> to <strong>{edge.target}</strong>
        {edge.label ? ` (when ${edge.label})` : ''}
      </p>
      {problems.map((problem, index) => (
        <p className="field-error" key={index}>
          {problem.message}
        </p>
      ))}
      {editable && (
        <button
          type="button"
          className="button button-danger"
          onClick={() => {
            setEdges((current) => current.filter((candidate) => candidate.id !== edge.id));
            onSelect(null);
          }}
        >
          Remove connection
        </button>
      )}
    </>
  );
}

function NodeForm({ node, nodes, edges, setNodes, setEdges, onSelect, onRemove, focusForm, editable, workflowId }: Props & { node: StepNode }) {
  const spec = CATALOG[node.data.type];
  const heading = useRef<HTMLHeadingElement>(null);
  const scope = useMemo(() => ({ workflowId, nodeId: node.id, nodes, edges, readOnly: !editable }), [workflowId, node.id, nodes, edges, editable]);
  useEffect(() => {
    if (focusForm > 0) heading.current?.focus();
  }, [focusForm]);
  const problems = useProblems().byNode.get(node.id) ?? [];
  const [newId, setNewId] = useState(node.id);
  const [target, setTarget] = useState('');
  const [branch, setBranch] = useState<'true' | 'false'>('true');
  const setParams = (params: Params) =>
    setNodes((current) => current.map((candidate) => (candidate.id === node.id ? { ...candidate, data: { ...candidate.data, params } } : candidate)));
  const fieldProblems = (name: string): FieldProblem[] => problems.filter((problem) => paramOf(problem.field) === name);
  const nodeProblems = problems.filter((problem) => paramOf(problem.field) === null || !spec.fields.some((field) => field.name === paramOf(problem.field)));
  const idTaken = newId !== node.id && nodes.some((candidate) => candidate.id === newId);
  const rename = () => {
    if (!NODE_ID.test(newId) || idTaken || newId === node.id) return;
    setNodes((current) => current.map((candidate) => (candidate.id === node.id ? { ...candidate, id: newId } : candidate)));
    setEdges((current) =>
      current.map((item) => {
        const source = item.source === node.id ? newId : item.source;
        const targetId = item.target === node.id ? newId : item.target;
        return { ...item, id: edgeId(source, targetId), source, target: targetId };
      }),
    );
    onSelect(newId);
  };
  const outgoing = edges.filter((item) => item.source === node.id);
  const incoming = edges.filter((item) => item.target === node.id);
  const targets = nodes.filter((candidate) => connectable(nodes, edges, { source: node.id, target: candidate.id }));
  const connect = () => {
    if (!target) return;
    const branches = CATALOG[node.data.type].branches;
    setEdges((current) => [
      ...current,
      {
        id: edgeId(node.id, target),
        source: node.id,
        target,
        ...(branches ? { sourceHandle: branch, label: branch === 'true' ? branches[0] : branches[1] } : {}),
      },
    ]);
    setTarget('');
  };

  return (
    <fieldset disabled={!editable} className="inspector-form">
      <h2 ref={heading} tabIndex={-1}>
        {spec.label}
      </h2>
      <p className="hint">{spec.description}</p>
      {nodeProblems.length > 0 && (
        <ul className="notice notice-error" role="alert">
          {nodeProblems.map((problem, index) => (
            <li key={index}>{problem.message}</li>
          ))}
        </ul>
      )}
      <form
        className="inline-form"
        onSubmit={(event) => {
          event.preventDefault();
          rename();
        }}
      >
        <TextField
          label="Step id"
          value={newId}
          onChange={(event) => setNewId(event.target.value)}
          problems={
            !NODE_ID.test(newId)
              ? [{ field: 'id', message: '1 to 64 of A-Z, a-z, 0-9, _ and -' }]
              : idTaken
                ? [{ field: 'id', message: 'another step has this id' }]
                : undefined
          }
          hint="Expressions read its output as nodes.<id>"
        />
        {newId !== node.id && (
          <button type="submit" className="button button-small">
            Rename
          </button>
        )}
      </form>
      <CodeScopeContext.Provider value={scope}>
        {spec.fields.map((field) => (
          <ParamField key={field.name} field={field} params={node.data.params} onChange={setParams} problems={fieldProblems(field.name)} />
        ))}
      </CodeScopeContext.Provider>
      <h3>Connections</h3>
      {incoming.length === 0 && outgoing.length === 0 && <p className="hint">Not connected yet.</p>}
      <ul>
        {incoming.map((item) => (
          <li key={item.id}>
            from {item.source}
            {item.label ? ` (${item.label})` : ''}
          </li>
        ))}
        {outgoing.map((item) => (
          <li key={item.id}>
            to {item.target}
            {item.label ? ` (when ${item.label})` : ''}{' '}
            <button
              type="button"
              className="button button-small"
              onClick={() => setEdges((current) => current.filter((candidate) => candidate.id !== item.id))}
              aria-label={`Remove the connection to ${item.target}`}
            >
              Remove
            </button>
          </li>
        ))}
      </ul>
      {targets.length > 0 && (
        <div className="inline-form">
          <div className="field">
            <label htmlFor={`connect-${node.id}`}>Then go to</label>
            <select id={`connect-${node.id}`} value={target} onChange={(event) => setTarget(event.target.value)}>
              <option value="">Choose a step</option>
              {targets.map((candidate) => (
                <option key={candidate.id} value={candidate.id}>
                  {candidate.id}
                </option>
              ))}
            </select>
          </div>
          {CATALOG[node.data.type].branches && (
            <div className="field">
              <label htmlFor={`branch-${node.id}`}>{node.data.type === 'condition' ? 'When the condition is' : 'Branch'}</label>
              <select id={`branch-${node.id}`} value={branch} onChange={(event) => setBranch(event.target.value as 'true' | 'false')}>
                <option value="true">{CATALOG[node.data.type].branches![0]} (true)</option>
                <option value="false">{CATALOG[node.data.type].branches![1]} (false)</option>
              </select>
            </div>
          )}
          <button type="button" className="button button-small" onClick={connect} disabled={!target}>
            Connect
          </button>
        </div>
      )}
      <p>
        <button type="button" className="button button-danger button-small" onClick={() => onRemove(node.id)}>
          Delete this step
        </button>
      </p>
    </fieldset>
  );
}
