import { useEffect, useState } from 'react';
import { Link, useLocation, useNavigate, useParams } from 'react-router';
import { saveDownload } from '../../../api/download';
import { useAction } from '../../../api/useLoad';
import { useCanManage } from '../../../auth/session';
import { ConfirmDialog } from '../../../components/Dialog';
import { ErrorNotice, Loading, PageHeader, Success } from '../../../components/Status';
import { formatDateTime, formatNumber } from '../../../format';
import { deleteAudience, exportAudience, useAudience } from '../api/audiences';
import { AudienceMembers } from './AudienceMembers';
import { AudienceSizes } from './AudienceSizes';
import { awaitingPass, PASS_POLL_MS } from './audienceStatus';
import { describeDefinition } from './predicates';
import './audiences.css';

/** What the editor hands this page after a save: which save, and when a new version was saved (to wait for its pass). */
export interface SavedState {
  saved?: 'created' | 'updated';
  /** `updated_at` of a save that made a new version. */
  changedAt?: string;
}

/**
 * One audience: its size, version and last evaluation, the definition in words, the size per day, the members (external
 * ids only, no personal data) and the CSV export. While a pass has yet to judge it (new, or a new version), the page
 * looks again every few seconds, so members appear without a reload.
 */
export default function AudiencePage() {
  const { id = '' } = useParams();
  const navigate = useNavigate();
  const saved = (useLocation().state as SavedState | null) ?? {};
  const manage = useCanManage();
  const [tick, setTick] = useState(0);
  const audience = useAudience(id, tick);
  const data = audience.data;
  const waiting = data !== undefined && awaitingPass(data, saved.changedAt);
  useEffect(() => {
    if (!waiting) return;
    const timer = setInterval(() => setTick((value) => value + 1), PASS_POLL_MS);
    return () => clearInterval(timer);
  }, [waiting]);
  const [confirming, setConfirming] = useState(false);
  const remove = useAction(async () => {
    await deleteAudience(id);
    navigate('/audiences', { state: { deleted: data?.name ?? id } });
  });
  const download = useAction(async () => {
    const { response, blob } = await exportAudience(id);
    saveDownload(response, blob, `audience-${id}.csv`);
  });
  const missing = audience.error?.status === 404;
  const definition = data ? describeDefinition(data.definition) : undefined;

  return (
    <>
      <p>
        <Link to="/audiences">← All audiences</Link>
      </p>
      <PageHeader title={data?.name ?? (missing ? 'Audience not found' : 'Audience')} lead={data ? `Created ${formatDateTime(data.created_at)}` : undefined}>
        {data && manage && (
          <>
            <Link className="button" to={`/audiences/${encodeURIComponent(id)}/edit`}>
              Edit
            </Link>
            <button type="button" className="button button-danger" onClick={() => setConfirming(true)}>
              Delete
            </button>
          </>
        )}
      </PageHeader>
      <ErrorNotice
        error={audience.error}
        onRetry={missing ? undefined : audience.reload}
        title={missing ? 'No such audience in this organisation (or it was deleted).' : undefined}
      />
      {audience.loading && !data && <Loading />}
      {data && definition && (
        <>
          {saved.saved === 'created' && <Success>Audience saved. Its members come with the next pass, within about a minute.</Success>}
          {saved.saved === 'updated' && <Success>Audience saved{saved.changedAt ? ` as version ${data.version}` : ''}.</Success>}
          {waiting && (
            <p className="notice notice-warn" role="status">
              Waiting for the audience pass to judge {data.evaluated_at ? `version ${data.version}` : 'it'} over every player (it runs every 30 seconds).
            </p>
          )}
          <ul className="tiles" aria-label="Audience figures">
            <li className="tile">
              <span className="tile-label">Size</span>
              <span className="tile-value" data-audience="Size">
                {data.evaluated_at ? formatNumber(data.size) : '—'}
              </span>
            </li>
            <li className="tile">
              <span className="tile-label">Definition version</span>
              <span className="tile-value" data-audience="Version">
                {data.version}
              </span>
            </li>
            <li className="tile">
              <span className="tile-label">Last evaluated</span>
              <span className="tile-value audience-tile-time" data-audience="Last evaluated">
                {data.evaluated_at ? formatDateTime(data.evaluated_at) : 'not yet'}
              </span>
            </li>
          </ul>
          <section className="panel" aria-labelledby="definition-title">
            <h2 id="definition-title">Definition</h2>
            <p>Players matching {definition.combine === 'all' ? 'all' : 'any'} of:</p>
            <ul className="audience-definition">
              {definition.lines.map((line, index) => (
                <li key={index}>{line}</li>
              ))}
            </ul>
          </section>
          <AudienceSizes id={id} evaluatedAt={data.evaluated_at} />
          <AudienceMembers id={id} evaluatedAt={data.evaluated_at} />
          <section className="panel" aria-labelledby="export-title">
            <h2 id="export-title">Export</h2>
            <p>
              Every member as CSV: external ID, when they entered, first-deposit day, deposit count, last active day and GGR in the reporting currency. No
              personal data.
            </p>
            <button type="button" className="button" disabled={download.pending} onClick={() => void download.run()}>
              {download.pending ? 'Downloading…' : 'Download CSV'}
            </button>
            <ErrorNotice error={download.error} title="The export did not download." />
          </section>
          <ConfirmDialog
            open={confirming}
            title={`Delete “${data.name}”?`}
            confirmLabel="Delete audience"
            danger
            pending={remove.pending}
            error={remove.error}
            onConfirm={() => void remove.run()}
            onCancel={() => {
              setConfirming(false);
              remove.clear();
            }}
          >
            <p>
              Its members and size history go with it. Workflows that start on this audience’s <code>audience.entered</code> or <code>audience.exited</code>{' '}
              events hear nothing more.
            </p>
          </ConfirmDialog>
        </>
      )}
    </>
  );
}
