import { useEffect, useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { SelectField, TextField } from '../../../components/Field';
import { ErrorNotice, Loading } from '../../../components/Status';
import { formatDateTime } from '../../../format';
import { GATE_RULES } from '../../automations/runs/components/filters';
import { ruleText, SuppressedBadge } from '../../automations/runs/components/SuppressedBadge';
import { useEvidenceRecords } from '../api/compliance';

const PAGE = 25;
const FILTERS = ['player', 'rule', 'from', 'to'] as const;
type Filters = Record<(typeof FILTERS)[number], string>;

/** The start of a UTC day, and the start of the day after (the `to` day is included). */
const dayStart = (day: string) => `${day}T00:00:00.000Z`;
const dayAfter = (day: string) => new Date(Date.parse(dayStart(day)) + 86_400_000).toISOString();

/**
 * The gate's evidence, viewed (`GET /workflows-api/compliance/evidence/records`, docs/compliance.md "Viewing the
 * evidence"): every marketing step performed or suppressed, newest first, filtered by player, rule and UTC days. The
 * filters live in the address (`evidence.player`, …) so a player's page can link here; pages go on by the API's cursor.
 */
export function EvidenceViewer() {
  const [search, setSearch] = useSearchParams();
  const filters = Object.fromEntries(FILTERS.map((key) => [key, search.get(`evidence.${key}`) ?? ''])) as Filters;
  const key = FILTERS.map((name) => filters[name]).join('\u0000');
  const [cursors, setCursors] = useState<string[]>([]);
  useEffect(() => setCursors([]), [key]);
  const cursor = cursors[cursors.length - 1];
  const [player, setPlayer] = useState(filters.player);
  useEffect(() => setPlayer(filters.player), [filters.player]);

  const set = (changes: Partial<Filters>) =>
    setSearch(
      (current) => {
        const next = new URLSearchParams(current);
        for (const [name, value] of Object.entries(changes)) {
          if (value) next.set(`evidence.${name}`, value);
          else next.delete(`evidence.${name}`);
        }
        return next;
      },
      { replace: true },
    );
  useEffect(() => {
    if (player.trim() === filters.player) return;
    const timer = setTimeout(() => set({ player: player.trim() }), 400);
    return () => clearTimeout(timer);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [player, filters.player]);

  const page = useEvidenceRecords({
    limit: PAGE,
    ...(filters.player ? { playerId: filters.player } : {}),
    ...(filters.rule ? { rule: filters.rule as (typeof GATE_RULES)[number] } : {}),
    ...(filters.from ? { from: dayStart(filters.from) } : {}),
    ...(filters.to ? { to: dayAfter(filters.to) } : {}),
    ...(cursor ? { cursor } : {}),
  });
  const records = page.data?.data.records ?? [];
  const next = page.data?.data.nextCursor ?? null;

  return (
    <section className="panel" aria-labelledby="evidence-viewer-title">
      <h2 id="evidence-viewer-title">Evidence</h2>
      <p className="hint">Each marketing step the gate decided, newest first: performed, or suppressed with the rule that applied. Days are UTC.</p>
      <form className="toolbar" role="search" aria-label="Filter evidence" onSubmit={(event) => event.preventDefault()}>
        <TextField
          label="Player (external ID)"
          value={player}
          onChange={(event) => setPlayer(event.target.value)}
          problems={page.error?.problemsAt('playerId')}
        />
        <SelectField label="Rule" value={filters.rule} onChange={(event) => set({ rule: event.target.value })} problems={page.error?.problemsAt('rule')}>
          <option value="">Any</option>
          <option value="allowed">allowed (performed)</option>
          {GATE_RULES.map((rule) => (
            <option key={rule} value={rule}>
              {ruleText(rule)}
            </option>
          ))}
        </SelectField>
        <TextField
          label="From (UTC day)"
          type="date"
          value={filters.from}
          onChange={(event) => set({ from: event.target.value })}
          problems={page.error?.problemsAt('from')}
        />
        <TextField
          label="To (UTC day, included)"
          type="date"
          value={filters.to}
          onChange={(event) => set({ to: event.target.value })}
          problems={page.error?.problemsAt('to')}
        />
      </form>
      <ErrorNotice error={page.error} onRetry={page.reload} title="The evidence did not load." />
      {page.loading && !page.data && <Loading />}
      {page.data && records.length === 0 && <p>No evidence matches these filters.</p>}
      {records.length > 0 && (
        <div className="table-wrap">
          <table className="evidence-table">
            <caption>{cursors.length === 0 ? 'Newest first' : `Page ${cursors.length + 1}, newest first`}</caption>
            <thead>
              <tr>
                <th scope="col">Recorded</th>
                <th scope="col">Player</th>
                <th scope="col">Decision</th>
                <th scope="col">Step</th>
                <th scope="col">Run</th>
                <th scope="col">State hash</th>
              </tr>
            </thead>
            <tbody>
              {records.map((record) => (
                <tr key={`${record.run_id}:${record.node_id}`} data-evidence-run={record.run_id}>
                  <td>{formatDateTime(record.recorded_at)}</td>
                  <td>{record.player_id ? <Link to={`/players/${encodeURIComponent(record.player_id)}`}>{record.player_id}</Link> : '—'}</td>
                  <td>{record.rule === 'allowed' ? <span className="badge badge-completed">performed</span> : <SuppressedBadge rule={record.rule} />}</td>
                  <td>
                    <code>{record.node_id}</code> <span className="hint">{record.action_type.replace(/^action\./, '')}</span>
                  </td>
                  <td>
                    <Link to={`/runs/${encodeURIComponent(record.run_id)}`} aria-label={`Open run ${record.run_id}`}>
                      <code className="evidence-id">{record.run_id.slice(0, 12)}…</code>
                    </Link>{' '}
                    <span className="hint">v{record.workflow_version}</span>
                  </td>
                  <td>
                    <code title={record.state_hash}>{record.state_hash.slice(0, 12)}…</code>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {(cursors.length > 0 || next) && (
        <nav className="pager" aria-label="Evidence pages">
          <button type="button" className="button" disabled={cursors.length === 0} onClick={() => setCursors(cursors.slice(0, -1))}>
            Newer
          </button>
          <button type="button" className="button" disabled={!next} onClick={() => next && setCursors([...cursors, next])}>
            Older
          </button>
        </nav>
      )}
    </section>
  );
}
