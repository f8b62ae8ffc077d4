import { LoadStatus } from '../../../../components/Status';
import type { components } from '../../../../api/schema';
import { CATALOG } from '../../editor/components/catalog';
import { useVersionsDiff } from '../api/versions';

type Definition = components['schemas']['WorkflowVersionDefinition'];
type Diff = components['schemas']['WorkflowVersionDiff'];
type Step = Definition['nodes'][number];
type Mark = 'added' | 'removed' | 'changed' | 'same';

/** A value as a designer reads it: text as typed (quoted only when empty), anything else as JSON. */
const show = (value: unknown) => (value === undefined ? '(not set)' : typeof value === 'string' && value !== '' ? value : JSON.stringify(value));
const labelOf = (type: string) => (CATALOG as Record<string, { label: string } | undefined>)[type]?.label ?? type;

/** The top-level param key a diff path changes: `headers["X-Key"]` → `headers`, `body.items[0]` → `body`. */
const rootOf = (path: string) => path.split(/[.[]/)[0] ?? path;

function StepCard({ step, mark, changedKeys, side }: { step: Step; mark: Mark; changedKeys: Set<string>; side: 'before' | 'after' }) {
  const params = Object.entries(step.params ?? {});
  const word = { added: 'added', removed: 'removed', changed: 'changed', same: '' }[mark];
  return (
    <li className={`version-step version-step-${mark}`} data-step={step.id} data-mark={mark}>
      <div className="version-step-head">
        <code>{step.id}</code> <span>{labelOf(step.type)}</span>
        {word && <span className={`version-mark version-mark-${mark}`}>{word}</span>}
      </div>
      {params.length > 0 && (
        <dl className="version-params">
          {params.map(([key, value]) => (
            <div key={key} className={mark === 'changed' && changedKeys.has(key) ? `version-param-changed version-param-${side}` : undefined}>
              <dt>{key}</dt>
              <dd>{show(value)}</dd>
            </div>
          ))}
        </dl>
      )}
    </li>
  );
}

/** One version's steps in its own order, each marked against the other side. */
function Column({ title, definition, diff, side }: { title: string; definition: Definition; diff: Diff; side: 'before' | 'after' }) {
  const only = new Set((side === 'before' ? diff.nodes.removed : diff.nodes.added).map((step) => step.id));
  const changed = new Map(diff.nodes.changed.map((change) => [change.id, new Set(change.params.map((param) => rootOf(param.path)))]));
  return (
    <div className="version-column">
      <h4>{title}</h4>
      <p className="hint">{definition.name}</p>
      <ol className="version-steps">
        {definition.nodes.map((step) => (
          <StepCard
            key={step.id}
            step={step}
            side={side}
            mark={only.has(step.id) ? (side === 'before' ? 'removed' : 'added') : changed.has(step.id) ? 'changed' : 'same'}
            changedKeys={changed.get(step.id) ?? new Set()}
          />
        ))}
      </ol>
    </div>
  );
}

const counted = (count: number, one: string, many: string) => (count === 0 ? null : `${count} ${count === 1 ? one : many}`);

/** "1 step changed, 2 settings changed": the kinds of change there are, counted. */
function summaryOf(diff: Diff): string {
  const connections = diff.edges.added.length + diff.edges.removed.length;
  return [
    counted(diff.nodes.added.length, 'step added', 'steps added'),
    counted(diff.nodes.removed.length, 'step removed', 'steps removed'),
    counted(diff.nodes.changed.length, 'step changed', 'steps changed'),
    counted(connections, 'connection changed', 'connections changed'),
    counted(diff.fields.length, 'setting changed', 'settings changed'),
  ]
    .filter(Boolean)
    .join(', ');
}

/**
 * Two versions side by side (`/workflows/:id/diff` and both definitions): the older on the left, steps removed,
 * added and changed marked, then each change listed — top-level fields, params by path, connections.
 */
export function VersionsDiff({ workflowId, from, to }: { workflowId: string; from: number; to: number }) {
  const loaded = useVersionsDiff(workflowId, from, to);
  if (!loaded.data) return <LoadStatus load={loaded} />;
  const { diff, left, right } = loaded.data;
  const changes =
    diff.fields.length + diff.nodes.added.length + diff.nodes.removed.length + diff.nodes.changed.length + diff.edges.added.length + diff.edges.removed.length;

  return (
    <section className="version-diff" aria-labelledby="version-diff-title">
      <h3 id="version-diff-title">
        Version {from} → version {to}
      </h3>
      <p>{changes === 0 ? 'No differences: both versions define the same workflow.' : `${summaryOf(diff)}.`}</p>
      <div className="version-columns">
        <Column title={`Version ${from}`} definition={left} diff={diff} side="before" />
        <Column title={`Version ${to}`} definition={right} diff={diff} side="after" />
      </div>
      {changes > 0 && (
        <div className="version-changes">
          <h4>Changes</h4>
          <ul>
            {diff.fields.map((field) => (
              <li key={`field-${field.field}`}>
                <strong>{field.field}</strong>: <del>{show(field.before)}</del> → <ins>{show(field.after)}</ins>
              </li>
            ))}
            {diff.nodes.changed.map((change) => (
              <li key={`node-${change.id}`}>
                Step <code>{change.id}</code>
                {change.type && (
                  <>
                    {' '}
                    type <del>{labelOf(change.type.before)}</del> → <ins>{labelOf(change.type.after)}</ins>
                  </>
                )}
                <ul>
                  {change.params.map((param) => (
                    <li key={param.path}>
                      <code>{param.path}</code>: <del>{show(param.before)}</del> → <ins>{show(param.after)}</ins>
                    </li>
                  ))}
                </ul>
              </li>
            ))}
            {diff.edges.removed.map((edge) => (
              <li key={`edge-removed-${edge.from}-${edge.to}-${String(edge.when)}`}>
                Connection removed: <code>{edge.from}</code> → <code>{edge.to}</code>
                {edge.when !== undefined && ` (when ${String(edge.when)})`}
              </li>
            ))}
            {diff.edges.added.map((edge) => (
              <li key={`edge-added-${edge.from}-${edge.to}-${String(edge.when)}`}>
                Connection added: <code>{edge.from}</code> → <code>{edge.to}</code>
                {edge.when !== undefined && ` (when ${String(edge.when)})`}
              </li>
            ))}
          </ul>
        </div>
      )}
    </section>
  );
}
