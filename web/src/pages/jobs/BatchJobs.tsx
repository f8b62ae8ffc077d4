import { useEffect, useState } from 'react';
import { DataKeyGate } from '../../components/DataKeyGate';
import { PageHeader } from '../../components/Status';
import { useMember } from '../../auth/session';
import { JobCard } from './JobCard';
import { UploadForm } from './UploadForm';

const storageKey = (operatorId: string) => `operator-platform.jobs.${operatorId}`;

/**
 * Batch ingestion (`/operator-data-api/batch/*`): upload a JSON array, then follow the job's progress
 * live. The API has no list of jobs, so this page remembers the ids it started (this browser only) and
 * looks any other up by id.
 */
export default function BatchJobs() {
  const member = useMember();
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
      <DataKeyGate purpose="Uploading a batch">
        {(key) => (
          <>
            <UploadForm apiKey={key} onStarted={track} />
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
              <JobCard key={id} id={id} apiKey={key} onDismiss={() => setJobs((current) => current.filter((known) => known !== id))} />
            ))}
          </>
        )}
      </DataKeyGate>
    </>
  );
}
