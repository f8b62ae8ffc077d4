import { Link } from 'react-router';
import { LoadStatus } from '../../../components/Status';
import { RunsTable } from '../../automations/runs/components/RunsTable';
import '../../automations/runs/components/runs.css';
import { useRuns } from '../../automations/runs/api/runs';

/** Runs shown on the player page; the rest are one link away in the runs explorer, filtered to this player. */
const SHOWN = 10;

/**
 * The player's journey history: the runs about this player (`GET /workflows-api/runs?player=`, the runs whose payload
 * names the player's external id), newest first, each opening the run, with a link to all of them in the explorer.
 */
export function PlayerJourneys({ externalId, manage }: { externalId: string; manage: boolean }) {
  const runs = useRuns({ player: externalId, limit: SHOWN });
  const data = runs.data;
  return (
    <section className="panel" aria-labelledby="journeys-title">
      <h2 id="journeys-title">Journeys</h2>
      <LoadStatus load={runs} />
      {data && data.count === 0 && <p>No workflow has run for this player yet.</p>}
      {data && data.count > 0 && (
        <>
          <RunsTable runs={data.data} count={data.count} canRerun={manage} />
          {data.count > data.data.length && (
            <p>
              <Link to={`/runs?player=${encodeURIComponent(externalId)}`}>All {data.count} runs about this player</Link>
            </p>
          )}
        </>
      )}
    </section>
  );
}
