import { api, call } from '../../../api/client';
import { failureOf } from '../../../api/errors';
import type { QueryOf } from '../../../api/types';
import { useLoad } from '../../../api/useLoad';

/** One page of the audit trail, or nothing for a Member (the API shows it to the Owner and Admins only). */
export const useAuditEvents = (query: QueryOf<'/platform-api/operators/me/audit-events', 'get'>, manage: boolean) =>
  useLoad(async () => (manage ? call(api.GET('/platform-api/operators/me/audit-events', { params: { query } })) : null), [JSON.stringify(query), manage]);

/**
 * The events the filters match as a file: fetched rather than linked, because the export needs the session's bearer
 * token, which a plain link cannot carry.
 */
export async function exportAuditEvents(query: QueryOf<'/platform-api/operators/me/audit-events/export', 'get'>) {
  const { data, error, response } = await api.GET('/platform-api/operators/me/audit-events/export', { params: { query }, parseAs: 'blob' });
  if (!response.ok || !data) throw failureOf(response.status, error, response.headers);
  return { response, blob: data as Blob };
}
