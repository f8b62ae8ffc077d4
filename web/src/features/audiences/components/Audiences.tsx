import { Link, useLocation } from 'react-router';
import { useCanManage } from '../../../auth/session';
import { EmptyState, LoadStatus, PageHeader, Success } from '../../../components/Status';
import { formatDateTime, formatNumber, plural } from '../../../format';
import { useAudiences } from '../api/audiences';
import './audiences.css';

/**
 * Audiences (`/analytics-api/analytics/audiences`, docs/analytics.md "Audiences"): saved groups of players kept up to
 * date by the audience pass, with their size, definition version and when the pass last judged them. The Owner and
 * Admins create them; a Member reads.
 */
export default function Audiences() {
  const manage = useCanManage();
  const location = useLocation();
  const deleted = (location.state as { deleted?: string } | null)?.deleted;
  const audiences = useAudiences();
  const data = audiences.data;
  const full = data !== undefined && data.audiences.length >= data.limit;
  return (
    <>
      <PageHeader
        title="Audiences"
        lead="Groups of players defined by their figures, states and country. Members are kept up to date every 30 seconds, and automations can start when a player enters or leaves."
      >
        {manage && !full && (
          <Link className="button button-primary" to="/audiences/new">
            New audience
          </Link>
        )}
      </PageHeader>
      {deleted && <Success>Audience “{deleted}” was deleted with its members and size history.</Success>}
      <LoadStatus load={audiences} />
      {data && data.audiences.length === 0 && (
        <EmptyState title="No audiences yet">
          <p>
            An audience is a saved list of conditions, such as “first deposit in the last 7 days and only one deposit”. Its members follow the players’ data,
            and each player entering or leaving is an <code>audience.entered</code> or <code>audience.exited</code> event a workflow can start on.
          </p>
          {!manage && <p>The Owner and Admins create audiences.</p>}
        </EmptyState>
      )}
      {data && data.audiences.length > 0 && (
        <div className="table-wrap audience-list">
          <table tabIndex={0}>
            <caption>
              {plural(data.audiences.length, 'audience')} of at most {data.limit}
            </caption>
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col" className="num">
                  Size
                </th>
                <th scope="col" className="num">
                  Version
                </th>
                <th scope="col">Last evaluated</th>
              </tr>
            </thead>
            <tbody>
              {data.audiences.map((audience) => (
                <tr key={audience.id}>
                  <td>
                    <Link to={`/audiences/${encodeURIComponent(audience.id)}`}>{audience.name}</Link>
                  </td>
                  <td className="num">{audience.evaluated_at ? formatNumber(audience.size) : '—'}</td>
                  <td className="num">{audience.version}</td>
                  <td>{audience.evaluated_at ? formatDateTime(audience.evaluated_at) : 'waiting for the first pass'}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {manage && full && <p className="hint">The organisation keeps {data.limit} audiences, the most it may: delete one to make another.</p>}
    </>
  );
}
