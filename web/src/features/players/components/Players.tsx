import { useEffect, useState } from 'react';
import { Link, useLocation } from 'react-router';
import { SelectField, TextField } from '../../../components/Field';
import { EmptyState, LoadStatus, PageHeader, Success } from '../../../components/Status';
import { formatDateTime } from '../../../format';
import { AddPlayer } from './AddPlayer';
import { DataSummary } from './DataSummary';
import { useDataSettings } from '../../settings/api/settings';
import { usePlayers } from '../api/players';

const PAGE = 25;

/** Players (`/analytics-api/analytics/players`): search and page through them; personal data stays sealed here. */
export default function Players() {
  const location = useLocation();
  const erased = (location.state as { erased?: string } | null)?.erased;
  const [typed, setTyped] = useState('');
  const [search, setSearch] = useState('');
  const [sort, setSort] = useState('created_at');
  const [direction, setDirection] = useState<'desc' | 'asc'>('desc');
  const [offset, setOffset] = useState(0);
  useEffect(() => {
    const timer = setTimeout(() => {
      setSearch(typed.trim());
      setOffset(0);
    }, 300);
    return () => clearTimeout(timer);
  }, [typed]);
  const players = usePlayers({
    entity_type: 'player',
    sort: sort as 'created_at',
    direction,
    limit: String(PAGE),
    offset: String(offset),
    ...(search ? { search } : {}),
  });
  const data = players.data?.data;
  // Whether a data template is selected: the empty state asks for one only while none is (issue 44).
  const settings = useDataSettings();
  const templateName = settings.data?.template?.name ?? settings.data?.template?.id;

  return (
    <>
      <PageHeader
        title="Players"
        lead="Personal fields (names, email, phone, date of birth) stay encrypted in this list, as the API returns them; open a player to read them."
      />
      {erased && <Success>Player {erased} was erased: their personal data is gone and their events are redacted.</Success>}
      <form className="toolbar" role="search" onSubmit={(event) => event.preventDefault()}>
        <TextField label="Search by external ID" type="search" value={typed} onChange={(event) => setTyped(event.target.value)} />
        <SelectField label="Sort by" value={sort} onChange={(event) => setSort(event.target.value)}>
          <option value="created_at">Created</option>
          <option value="updated_at">Updated</option>
          <option value="external_id">External ID</option>
        </SelectField>
        <SelectField label="Order" value={direction} onChange={(event) => setDirection(event.target.value as 'desc' | 'asc')}>
          <option value="desc">Newest or Z first</option>
          <option value="asc">Oldest or A first</option>
        </SelectField>
      </form>
      <AddPlayer onSaved={players.reload} />
      <LoadStatus load={players} />
      {data && data.total === 0 && !search && (
        <EmptyState title="No players yet">
          <p>
            Players arrive through the data API (<code>POST /operator-data-api/entities</code> with an API key) or a <Link to="/jobs">batch upload</Link>.{' '}
            {settings.data && !settings.data.template && (
              <>
                First <Link to="/settings">select the data template</Link>.
              </>
            )}
            {templateName && <>They follow the {templateName} data template.</>}
          </p>
        </EmptyState>
      )}
      {data && data.total === 0 && search && <p>No player matches “{search}”.</p>}
      {data && data.players.length > 0 && (
        <>
          <div className="table-wrap">
            <table>
              <caption>
                {data.total} player{data.total === 1 ? '' : 's'}
              </caption>
              <thead>
                <tr>
                  <th scope="col">External ID</th>
                  <th scope="col">Data</th>
                  <th scope="col">Created</th>
                  <th scope="col">Updated</th>
                </tr>
              </thead>
              <tbody>
                {data.players.map((player) => (
                  <tr key={player.id}>
                    <td>
                      <Link to={`/players/${encodeURIComponent(player.external_id)}`}>{player.external_id}</Link>
                    </td>
                    <td>
                      <DataSummary data={player.data} />
                    </td>
                    <td>{formatDateTime(player.created_at)}</td>
                    <td>{formatDateTime(player.updated_at)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          <nav className="pager" aria-label="Pages of players">
            <button type="button" className="button" disabled={offset === 0} onClick={() => setOffset(Math.max(0, offset - PAGE))}>
              Previous
            </button>
            <span>
              {offset + 1}–{offset + data.players.length} of {data.total}
            </span>
            <button type="button" className="button" disabled={!data.has_more} onClick={() => setOffset(offset + PAGE)}>
              Next
            </button>
          </nav>
        </>
      )}
    </>
  );
}
