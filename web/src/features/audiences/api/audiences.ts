import { api, call } from '../../../api/client';
import { failureOf } from '../../../api/errors';
import type { BodyOf } from '../../../api/types';
import { useLoad } from '../../../api/useLoad';

export type AudienceBody = BodyOf<'/analytics-api/analytics/audiences', 'post'>;

const byId = (id: string) => ({ params: { path: { id } } });

/** The organisation's audiences with their current size, oldest first, and how many it may keep. */
export const useAudiences = () => useLoad(async () => (await call(api.GET('/analytics-api/analytics/audiences'))).data, []);

/** `tick` loads again while the page waits for a pass. */
export const useAudience = (id: string, tick = 0) =>
  useLoad(async () => (await call(api.GET('/analytics-api/analytics/audiences/{id}', byId(id)))).data, [id, tick]);

/** `evaluatedAt` is the audience's last evaluation: a new one loads the page again. */
export const useAudienceMembers = (id: string, query: { limit: number; offset: number }, evaluatedAt: string | null) =>
  useLoad(
    async () =>
      (
        await call(
          api.GET('/analytics-api/analytics/audiences/{id}/members', {
            params: { path: { id }, query: { limit: String(query.limit), offset: String(query.offset) } },
          }),
        )
      ).data,
    [id, query.limit, query.offset, evaluatedAt],
  );

/** The size per UTC day over the last 90 days (the API's default range), loaded again after each evaluation. */
export const useAudienceSizes = (id: string, evaluatedAt: string | null) =>
  useLoad(async () => (await call(api.GET('/analytics-api/analytics/audiences/{id}/sizes', byId(id)))).data, [id, evaluatedAt]);

export const createAudience = async (body: AudienceBody) => (await call(api.POST('/analytics-api/analytics/audiences', { body }))).data;

export const updateAudience = async (id: string, body: AudienceBody) =>
  (await call(api.PUT('/analytics-api/analytics/audiences/{id}', { ...byId(id), body }))).data;

export const deleteAudience = (id: string) => call(api.DELETE('/analytics-api/analytics/audiences/{id}', byId(id)));

/**
 * The members as CSV (external id and figures, no personal data): fetched rather than linked, because the export
 * needs the session's bearer token, which a plain link cannot carry.
 */
export async function exportAudience(id: string) {
  const { data, error, response } = await api.GET('/analytics-api/analytics/audiences/{id}/export', { ...byId(id), parseAs: 'blob' });
  if (!response.ok || !data) throw failureOf(response.status, error, response.headers);
  return { response, blob: data as Blob };
}
