import { CATALOG, NODE_TYPES, type Group, type NodeType } from './catalog';

const GROUPS: Array<[Group, string]> = [
  ['trigger', 'Start when…'],
  ['condition', 'Check'],
  ['action', 'Then do'],
];

/** Every node type, grouped; a click adds it beside the selected step (and selects it). */
export function Palette({ onAdd }: { onAdd: (type: NodeType) => void }) {
  return (
    <nav className="palette" aria-label="Add a step">
      <h2>Add a step</h2>
      {GROUPS.map(([group, title]) => (
        <section key={group} aria-label={title}>
          <h3>{title}</h3>
          <ul>
            {NODE_TYPES.filter((type) => CATALOG[type].group === group).map((type) => (
              <li key={type}>
                <button type="button" className="button button-small" title={CATALOG[type].description} onClick={() => onAdd(type)}>
                  <span aria-hidden="true">+</span> {CATALOG[type].label}
                </button>
              </li>
            ))}
          </ul>
        </section>
      ))}
    </nav>
  );
}
