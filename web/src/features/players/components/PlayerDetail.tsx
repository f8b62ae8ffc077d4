import { useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { useAction } from '../../../api/useLoad';
import { useCanManage } from '../../../auth/session';
import { ConfirmDialog } from '../../../components/Dialog';
import { formatValue } from '../../../components/KeyValueEditor';
import { ErrorNotice, Loading, PageHeader } from '../../../components/Status';
import { formatDateTime, pretty } from '../../../format';
import { CompliancePanel } from '../../compliance/components/player/CompliancePanel';
import { PlayerJourneys } from './PlayerJourneys';
import { erasePlayer, usePlayer } from '../api/players';

/** The states the compliance panel shows in words rather than as JSON. */
const GATE_STATES = new Set(['compliance', 'consent']);

/** One player (`/analytics-api/analytics/players/:id`): decrypted personal data, responsible-gambling standing, states, journeys (runs about the player), recent events, and erasure. */
export default function PlayerDetail() {
  const { externalId = '' } = useParams();
  const navigate = useNavigate();
  const [confirming, setConfirming] = useState(false);
  const player = usePlayer(externalId);
  const manage = useCanManage();
  const erase = useAction(async () => {
    await erasePlayer(externalId);
    navigate('/players', { state: { erased: externalId } });
  });
  const data = player.data?.data;
  const otherStates = (data?.states ?? []).filter((state) => !GATE_STATES.has(state.state_key));

  return (
    <>
      <p>
        <Link to="/players">← All players</Link>
      </p>
      <PageHeader
        title={`Player ${externalId}`}
        lead={data ? `Created ${formatDateTime(data.created_at)} · updated ${formatDateTime(data.updated_at)}` : undefined}
      />
      <ErrorNotice
        error={player.error}
        onRetry={player.error?.status === 404 ? undefined : player.reload}
        title={player.error?.status === 404 ? 'No such player (or the player was erased).' : undefined}
      />
      {player.loading && !data && <Loading />}
      {data && (
        <>
          <section className="panel" aria-labelledby="fields-title">
            <h2 id="fields-title">Fields</h2>
            <dl className="fields">
              {Object.entries(data.data).map(([key, value]) => (
                <div key={key}>
                  <dt>{key}</dt>
                  <dd>{formatValue(value)}</dd>
                </div>
              ))}
            </dl>
          </section>
          <CompliancePanel externalId={externalId} states={data.states} fields={data.data} manage={manage} onChanged={player.reload} />
          <section className="panel" aria-labelledby="states-title">
            <h2 id="states-title">States</h2>
            {otherStates.length === 0 ? (
              <p>No other states (balance, KYC status, risk score, loyalty tier) have been set for this player.</p>
            ) : (
              <div className="table-wrap">
                <table>
                  <thead>
                    <tr>
                      <th scope="col">Key</th>
                      <th scope="col">Value</th>
                      <th scope="col">Updated</th>
                    </tr>
                  </thead>
                  <tbody>
                    {otherStates.map((state) => (
                      <tr key={state.state_key}>
                        <td>{state.state_key}</td>
                        <td>
                          <code>{formatValue(state.value)}</code>
                        </td>
                        <td>{formatDateTime(state.updated_at)}</td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </div>
            )}
          </section>
          <PlayerJourneys externalId={externalId} manage={manage} />
          <section className="panel" aria-labelledby="events-title">
            <h2 id="events-title">Recent events</h2>
            {data.recentEvents.length === 0 ? (
              <p>No events recorded for this player yet.</p>
            ) : (
              <div className="table-wrap">
                <table>
                  <caption>The 20 most recent</caption>
                  <thead>
                    <tr>
                      <th scope="col">When</th>
                      <th scope="col">Type</th>
                      <th scope="col">Data</th>
                    </tr>
                  </thead>
                  <tbody>
                    {data.recentEvents.map((event) => (
                      <tr key={event.id}>
                        <td>{formatDateTime(event.created_at)}</td>
                        <td>{event.event_type}</td>
                        <td>
                          <pre>{pretty(event.data)}</pre>
                        </td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </div>
            )}
          </section>
          {manage && (
            <section className="panel" aria-labelledby="erase-title">
              <h2 id="erase-title">Erase this player</h2>
              <p>Erasure removes the personal data, redacts every event and deletes the states, for good (data-protection requests). It cannot be undone.</p>
              <button type="button" className="button button-danger" onClick={() => setConfirming(true)}>
                Erase player…
              </button>
              <ConfirmDialog
                open={confirming}
                title={`Erase player ${externalId}?`}
                confirmLabel="Erase for good"
                danger
                typeToConfirm={externalId}
                pending={erase.pending}
                error={erase.error}
                onCancel={() => {
                  setConfirming(false);
                  erase.clear();
                }}
                onConfirm={() => void erase.run()}
              >
                <p>
                  Their personal fields are deleted, their events become <code>{'{ "_redacted": true }'}</code> and their states are removed. Any later data for
                  this external ID is refused.
                </p>
              </ConfirmDialog>
            </section>
          )}
        </>
      )}
    </>
  );
}
