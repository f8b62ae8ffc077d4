import { useEffect, useState } from 'react';
import { SelectField, TextField } from '../../../../components/Field';
import { GATE_RULES, RUN_SOURCES, RUN_STATUSES, type FilterKey, type RunFilters } from './filters';
import { useAutomation, useAutomations } from '../../api/automations';

/** Node types whose outgoing edges branch on `when` (a condition, a wait that ends by event or timeout). */
const BRANCHING = new Set(['condition', 'action.wait_for_event']);

/**
 * The explorer's filters. Version and branch belong to one workflow, so they appear once a workflow is chosen, with
 * its versions and its branching steps to pick from. The player field applies after a pause in typing.
 */
export function RunFiltersForm({ filters, onChange }: { filters: RunFilters; onChange: (changes: Partial<Record<FilterKey, string>>) => void }) {
  const workflows = useAutomations({ limit: 100 });
  const chosen = useAutomation(filters.workflowId || undefined);
  const [player, setPlayer] = useState(filters.player);
  useEffect(() => setPlayer(filters.player), [filters.player]);
  useEffect(() => {
    if (player.trim() === filters.player) return;
    const timer = setTimeout(() => onChange({ player: player.trim() }), 400);
    return () => clearTimeout(timer);
  }, [player, filters.player, onChange]);

  const workflow = chosen.data ?? null;
  const branching = (workflow?.nodes ?? []).filter((node) => BRANCHING.has(node.type));
  const listed = workflows.data?.data ?? [];
  const unlisted = filters.workflowId && !listed.some((item) => item.id === filters.workflowId);
  // A branch from the address whose step the current version no longer has stays selectable, as it was asked for.
  const branches = branching.flatMap((node) => [`${node.id}:true`, `${node.id}:false`]);
  if (filters.branch && !branches.includes(filters.branch)) branches.push(filters.branch);

  return (
    <form className="toolbar runs-filters" role="search" aria-label="Filter runs" onSubmit={(event) => event.preventDefault()}>
      <SelectField label="Status" value={filters.status} onChange={(event) => onChange({ status: event.target.value })}>
        <option value="">Any</option>
        {RUN_STATUSES.map((status) => (
          <option key={status} value={status}>
            {status}
          </option>
        ))}
      </SelectField>
      <SelectField label="Suppressed step" value={filters.suppressed} onChange={(event) => onChange({ suppressed: event.target.value })}>
        <option value="">Any run</option>
        <option value="true">Any rule</option>
        {GATE_RULES.map((rule) => (
          <option key={rule} value={rule}>
            {rule.replace(/_/g, ' ')}
          </option>
        ))}
      </SelectField>
      <SelectField label="Workflow" value={filters.workflowId} onChange={(event) => onChange({ workflowId: event.target.value, version: '', branch: '' })}>
        <option value="">Any</option>
        {listed.map((item) => (
          <option key={item.id} value={item.id}>
            {item.name}
          </option>
        ))}
        {unlisted && <option value={filters.workflowId}>{filters.workflowId}</option>}
      </SelectField>
      <TextField label="Player (external ID)" type="search" value={player} onChange={(event) => setPlayer(event.target.value)} />
      <SelectField label="Source" value={filters.source} onChange={(event) => onChange({ source: event.target.value })}>
        <option value="">Any</option>
        {RUN_SOURCES.map((source) => (
          <option key={source} value={source}>
            {source}
          </option>
        ))}
      </SelectField>
      <TextField label="From" type="date" value={filters.from} onChange={(event) => onChange({ from: event.target.value })} />
      <TextField label="To" type="date" value={filters.to} onChange={(event) => onChange({ to: event.target.value })} />
      {workflow && (
        <SelectField label="Version" value={filters.version} onChange={(event) => onChange({ version: event.target.value })}>
          <option value="">Any</option>
          {Array.from({ length: workflow.version }, (_, index) => workflow.version - index).map((version) => (
            <option key={version} value={String(version)}>
              {version}
            </option>
          ))}
        </SelectField>
      )}
      {workflow && branches.length > 0 && (
        <SelectField label="Branch taken" value={filters.branch} onChange={(event) => onChange({ branch: event.target.value })}>
          <option value="">Any</option>
          {branches.map((branch) => (
            <option key={branch} value={branch}>
              {branch.replace(/:true$/, ' → yes').replace(/:false$/, ' → no')}
            </option>
          ))}
        </SelectField>
      )}
      {!filters.workflowId && <p className="hint runs-filters-hint">Choose a workflow to filter by version or by the branch a step took.</p>}
    </form>
  );
}
