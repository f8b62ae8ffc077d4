import { useState } from 'react';
import { Link } from 'react-router';
import { Pager } from '../../../components/Pager';
import { LoadStatus } from '../../../components/Status';
import { formatDateTime, plural } from '../../../format';
import { useAudienceMembers } from '../api/audiences';

const PAGE = 25;

/** The members, latest to enter first, 25 a page: external ids linking to the player, never personal data. */
export function AudienceMembers({ id, evaluatedAt }: { id: string; evaluatedAt: string | null }) {
  const [page, setPage] = useState(1);
  const offset = (page - 1) * PAGE;
  const members = useAudienceMembers(id, { limit: PAGE, offset }, evaluatedAt);
  const data = members.data;
  return (
    <section className="panel" aria-labelledby="members-title">
      <h2 id="members-title">Members</h2>
      <LoadStatus load={members} />
      {data && data.total === 0 && <p>{evaluatedAt ? 'No player matches the definition now.' : 'Members appear once the audience pass has judged it.'}</p>}
      {data && data.members.length > 0 && (
        <>
          <div className="table-wrap">
            <table tabIndex={0}>
              <caption>{plural(data.total, 'member')}</caption>
              <thead>
                <tr>
                  <th scope="col">External ID</th>
                  <th scope="col">Entered</th>
                </tr>
              </thead>
              <tbody>
                {data.members.map((member) => (
                  <tr key={member.external_id}>
                    <td>
                      <Link to={`/players/${encodeURIComponent(member.external_id)}`}>{member.external_id}</Link>
                    </td>
                    <td>{formatDateTime(member.entered_at)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          <Pager label="Pages of members" page={page} first={offset} shown={data.members.length} count={data.total} onPage={setPage} />
        </>
      )}
    </section>
  );
}
