import { useEffect } from 'react';
import { ErrorNotice, Loading, StatusBadge } from '../../../components/Status';
import { formatDateTime } from '../../../format';
import { useBatchJob } from '../api/jobs';

/** One job, polled every second while it is queued or running. */
export function JobCard({ id, onDismiss }: { id: string; onDismiss: () => void }) {
  const job = useBatchJob(id);
  const data = job.data?.data;
  const live = !data || data.status === 'queued' || data.status === 'running';
  useEffect(() => {
    if (!live || job.error) return;
    const timer = setInterval(job.reload, 1000);
    return () => clearInterval(timer);
  }, [live, job.error, job.reload]);

  return (
    <section className="panel" aria-label={`Job ${id}`}>
      <div className="page-header">
        <h3>
          <code>{id}</code> {data && <StatusBadge status={data.status} />}
        </h3>
        <button type="button" className="button button-small" onClick={onDismiss} aria-label={`Stop following ${id}`}>
          Dismiss
        </button>
      </div>
      <ErrorNotice error={job.error} onRetry={job.reload} />
      {!data && !job.error && <Loading />}
      {data && (
        <>
          <progress max={100} value={data.progress} aria-label={`Progress of ${id}`} />
          <p>
            {data.progress} % · {data.output.succeeded} stored · {data.output.failed} failed · started {formatDateTime(data.created_at)}
            {data.completed_at && ` · finished ${formatDateTime(data.completed_at)}`}
          </p>
          {data.error && <p className="notice notice-error">{data.error}</p>}
          {data.output.errors.length > 0 && (
            <div className="table-wrap">
              <table>
                <caption>Items that failed</caption>
                <thead>
                  <tr>
                    <th scope="col" className="num">
                      Item
                    </th>
                    <th scope="col">External ID</th>
                    <th scope="col">Code</th>
                    <th scope="col">Reason</th>
                  </tr>
                </thead>
                <tbody>
                  {data.output.errors.slice(0, 100).map((error) => (
                    <tr key={error.index}>
                      <td className="num">{error.index}</td>
                      <td>{error.externalId ?? '—'}</td>
                      <td>
                        <code>{error.code}</code>
                      </td>
                      <td>{error.message}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          )}
        </>
      )}
    </section>
  );
}
