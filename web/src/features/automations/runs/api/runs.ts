import { api, call } from '../../../../api/client';
import { failureOf } from '../../../../api/errors';
import type { BodyOf, QueryOf } from '../../../../api/types';
import { useLoad } from '../../../../api/useLoad';

/** Runs across the organisation's automations, filtered (the runs explorer, a player's journeys). */
export const useRuns = (query: QueryOf<'/workflows-api/runs', 'get'>) =>
  useLoad(() => call(api.GET('/workflows-api/runs', { params: { query } })), [JSON.stringify(query)]);

/** One automation's latest runs. */
export const useAutomationRuns = (id: string, limit: number) =>
  useLoad(() => call(api.GET('/workflows-api/workflows/{id}/runs', { params: { path: { id }, query: { limit } } })), [id, limit]);

/** One run with its steps; its page polls `reload` while it runs. */
export const useRun = (runId: string) => useLoad(() => call(api.GET('/workflows-api/runs/{runId}', { params: { path: { runId } } })), [runId]);

/** Whether the run is recorded yet: a run just started may not be for a moment. */
export const runRecorded = async (runId: string) => (await api.GET('/workflows-api/runs/{runId}', { params: { path: { runId } } })).response.status === 200;

export const cancelRun = (runId: string) => call(api.POST('/workflows-api/runs/{runId}/cancel', { params: { path: { runId } } }));

export const answerApproval = (runId: string, body: BodyOf<'/workflows-api/runs/{runId}/approval', 'post'>) =>
  call(api.POST('/workflows-api/runs/{runId}/approval', { params: { path: { runId } }, body }));

export const rerunFromStep = (runId: string, body: BodyOf<'/workflows-api/runs/{runId}/rerun', 'post'>) =>
  call(api.POST('/workflows-api/runs/{runId}/rerun', { params: { path: { runId } }, body }));

/**
 * A step's whole input or output, too large for the run record, as a file: fetched rather than linked, because the
 * endpoint needs the session's bearer token, which a plain link cannot carry.
 */
export async function downloadStepValue(runId: string, nodeId: string, part: 'input' | 'output') {
  const { data, error, response } = await api.GET(`/workflows-api/runs/{runId}/steps/{nodeId}/${part}`, {
    params: { path: { runId, nodeId } },
    parseAs: 'blob',
  });
  if (!response.ok || !data) throw failureOf(response.status, error, response.headers);
  return { response, blob: data as Blob };
}

/** Events that matched a trigger but started no run, with why; loaded only while the list is open. */
export const useSkippedTriggers = (id: string, open: boolean, reason: QueryOf<'/workflows-api/workflows/{id}/skipped-triggers', 'get'>['reason'] | '') =>
  useLoad(
    () =>
      open
        ? call(api.GET('/workflows-api/workflows/{id}/skipped-triggers', { params: { path: { id }, query: { limit: 20, ...(reason ? { reason } : {}) } } }))
        : Promise.resolve(null),
    [id, open, reason],
  );

/** How far event dispatch lags behind, for the banner shown when it falls behind. */
export const useDispatchLag = () => useLoad(() => call(api.GET('/workflows-api/event-dispatch')), []);

export const previewReplay = (id: string, body: BodyOf<'/workflows-api/workflows/{id}/replays/preview', 'post'>) =>
  call(api.POST('/workflows-api/workflows/{id}/replays/preview', { params: { path: { id } }, body }));

export const startReplay = (id: string, body: BodyOf<'/workflows-api/workflows/{id}/replays', 'post'>) =>
  call(api.POST('/workflows-api/workflows/{id}/replays', { params: { path: { id } }, body }));

export const getReplay = (replayId: string) => call(api.GET('/workflows-api/replays/{replayId}', { params: { path: { replayId } } }));
