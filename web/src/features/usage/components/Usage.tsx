import { Link } from 'react-router';
import { LoadStatus, PageHeader } from '../../../components/Status';
import { formatNumber } from '../../../format';
import { useUsage } from '../api/usage';

function Meter({ label, used, limit, remaining }: { label: string; used: number; limit: number; remaining: number }) {
  const share = limit > 0 ? Math.min(1, used / limit) : 1;
  return (
    <section className="panel" aria-labelledby={`${label}-title`}>
      <h2 id={`${label}-title`}>{label}</h2>
      <progress max={Math.max(limit, 1)} value={Math.min(used, Math.max(limit, 1))} aria-label={`${label}: ${used} of ${limit} used`} />
      <p>
        <strong>{formatNumber(used)}</strong> of {formatNumber(limit)} used · {formatNumber(remaining)} left
        {share >= 0.9 && limit > 0 && <span className="badge badge-failed"> almost used up</span>}
      </p>
    </section>
  );
}

/** This month's automation usage against the quotas (`/workflows-api/usage`). */
export default function Usage() {
  const usage = useUsage();
  const data = usage.data?.data;
  return (
    <>
      <PageHeader
        title="Usage"
        lead={
          <>
            Every action a <Link to="/workflows">workflow</Link> runs is one Action; AI actions also count as AI Actions. Quotas reset on the 1st of each month
            (UTC); a run that would go over fails before it starts.
          </>
        }
      />
      <LoadStatus load={usage} />
      {data && (
        <>
          <p className="hint">Month {data.month} (UTC)</p>
          <div className="grid-2">
            <Meter label="Actions" {...data.actions} />
            <Meter label="AI Actions" {...data.aiActions} />
          </div>
          <p className="hint">Limits are set per organisation by the platform operator (npm run cli -- quota).</p>
        </>
      )}
    </>
  );
}
