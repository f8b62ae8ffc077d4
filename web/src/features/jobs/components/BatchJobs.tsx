import { useEffect, useState } from 'react';
import { PageHeader } from '../../../components/Status';
import { useCanManage, useMember } from '../../../auth/session';
import { JobCard } from './JobCard';
import { UploadForm } from './UploadForm';

const storageKey = (operatorId: string) => `operator-platform.jobs.${operatorId}`;

/**
 * Batch ingestion (`/operator-data-api/batch/*`): upload a JSON array, then follow the job's progress
 * live. The API has no list of jobs, so this page remembers the ids it started (this browser only) and
 * looks any other up by id. The Owner and Admins upload; a Member follows jobs.
 */
export default function BatchJobs() {
  const member = useMember();
  const manage = useCanManage();
  const [jobs, setJobs] = useState<string[]>(() => JSON.parse(localStorage.getItem(storageKey(member.operatorId)) ?? '[]') as string[]);
  const [lookup, setLookup] = useState('');
  useEffect(() => localStorage.setItem(storageKey(member.operatorId), JSON.stringify(jobs.slice(0, 20))), [jobs, member.operatorId]);
  const track = (id: string) => setJobs((current) => [id, ...current.filter((known) => known !== id)].slice(0, 20));

  return (
    <>
      <PageHeader
        title="Batch jobs"
        lead="Send up to 1,000 players, 5,000 events or 1,000 states at once. Valid items are stored even when others fail; each failure is listed with its reason."
      />
      {manage ? <UploadForm onStarted={track} /> : <p className="hint">Only the Owner or an Admin can upload a batch.</p>}
      <form
        className="inline-form panel"
        aria-label="Look up a job"
        onSubmit={(event) => {
          event.preventDefault();
          if (lookup.trim()) track(lookup.trim());
          setLookup('');
        }}
      >
        <div className="field">
          <label htmlFor="job-id">Follow a job by id</label>
          <input id="job-id" value={lookup} onChange={(event) => setLookup(event.target.value)} placeholder="job_…" />
        </div>
        <button type="submit" className="button">
          Follow
        </button>
      </form>
      <h2>Jobs started here</h2>
      {jobs.length === 0 && <p>No jobs yet. Upload a batch above; its progress shows here.</p>}
      {jobs.map((id) => (
        <JobCard key={id} id={id} onDismiss={() => setJobs((current) => current.filter((known) => known !== id))} />
      ))}
    </>
  );
}
