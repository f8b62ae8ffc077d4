import { useEffect, useState } from 'react';
import { SelectField, TextField } from '../../../components/Field';
import { TARGET_LABEL, TARGET_TYPES, type AuditFilters, type FilterKey } from './filters';

export interface ActorOption {
  value: string;
  label: string;
}

/** The audit log's filters; the target id applies after a pause in typing. */
export function AuditFiltersForm({
  filters,
  actions,
  actors,
  onChange,
}: {
  filters: AuditFilters;
  actions: readonly string[];
  actors: ActorOption[];
  onChange: (changes: Partial<Record<FilterKey, string>>) => void;
}) {
  const [targetId, setTargetId] = useState(filters.targetId);
  useEffect(() => setTargetId(filters.targetId), [filters.targetId]);
  useEffect(() => {
    if (targetId.trim() === filters.targetId) return;
    const timer = setTimeout(() => onChange({ targetId: targetId.trim() }), 400);
    return () => clearTimeout(timer);
  }, [targetId, filters.targetId, onChange]);
  const unlisted = filters.actor && !actors.some((actor) => actor.value === filters.actor);

  return (
    <form className="toolbar audit-filters" role="search" aria-label="Filter the audit log" onSubmit={(event) => event.preventDefault()}>
      <SelectField label="Action" value={filters.action} onChange={(event) => onChange({ action: event.target.value })}>
        <option value="">Any</option>
        {actions.map((action) => (
          <option key={action} value={action}>
            {action}
          </option>
        ))}
      </SelectField>
      <SelectField label="Who" value={filters.actor} onChange={(event) => onChange({ actor: event.target.value })}>
        <option value="">Anyone</option>
        {actors.map((actor) => (
          <option key={actor.value} value={actor.value}>
            {actor.label}
          </option>
        ))}
        {unlisted && <option value={filters.actor}>{filters.actor}</option>}
      </SelectField>
      <SelectField label="What" value={filters.targetType} onChange={(event) => onChange({ targetType: event.target.value })}>
        <option value="">Anything</option>
        {TARGET_TYPES.map((type) => (
          <option key={type} value={type}>
            {TARGET_LABEL[type]}
          </option>
        ))}
      </SelectField>
      <TextField label="Target ID" type="search" value={targetId} onChange={(event) => setTargetId(event.target.value)} />
      <TextField label="From" type="date" value={filters.from} onChange={(event) => onChange({ from: event.target.value })} />
      <TextField label="To" type="date" value={filters.to} onChange={(event) => onChange({ to: event.target.value })} />
    </form>
  );
}
