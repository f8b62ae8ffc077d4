import { api, call } from '../../../api/client';
import { useLoad } from '../../../api/useLoad';

/** A batch job's progress; the card polls it by calling `reload` while the job runs. */
export const useBatchJob = (jobId: string) => useLoad(() => call(api.GET('/operator-data-api/batch/jobs/{jobId}', { params: { path: { jobId } } })), [jobId]);

/** Starts a batch job; the items are the user's file as it is, which the API checks one by one and reports per item. */
export const startBatch = (kind: 'events' | 'entities' | 'states', items: unknown[]) =>
  call(api.POST(`/operator-data-api/batch/${kind}`, { body: items as never }));
