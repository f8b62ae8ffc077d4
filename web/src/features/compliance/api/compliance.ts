import { api, call } from '../../../api/client';
import { failureOf } from '../../../api/errors';
import type { BodyOf, QueryOf } from '../../../api/types';
import { useLoad } from '../../../api/useLoad';

/** The responsible-gambling gate's settings: everyone reads them, the Owner and Admins save them. */
export const useGateSettings = () => useLoad(() => call(api.GET('/workflows-api/compliance/settings')), []);

export const saveGateSettings = (body: BodyOf<'/workflows-api/compliance/settings', 'put'>) => call(api.PUT('/workflows-api/compliance/settings', { body }));

/** One page of marketing-suppression evidence (Owner and Admins). */
export const useEvidenceRecords = (query: QueryOf<'/workflows-api/compliance/evidence/records', 'get'>) =>
  useLoad(() => call(api.GET('/workflows-api/compliance/evidence/records', { params: { query } })), [JSON.stringify(query)]);

/**
 * The evidence export as a file: fetched rather than linked, because it needs the session's bearer token, which a
 * plain link cannot carry. `response` carries `x-truncated` when the period held more rows than one export gives.
 */
export async function exportEvidence(query: QueryOf<'/workflows-api/compliance/evidence', 'get'>) {
  const { data, error, response } = await api.GET('/workflows-api/compliance/evidence', { params: { query }, parseAs: 'blob' });
  if (!response.ok || !data) throw failureOf(response.status, error, response.headers);
  return { response, blob: data as Blob };
}

/** The harm indicators the gate holds for a player. */
export const usePlayerHarm = (externalId: string) =>
  useLoad(() => call(api.GET('/workflows-api/compliance/players/{externalId}/harm', { params: { path: { externalId } } })), [externalId]);

/**
 * Writes the player's `compliance` or `consent` state through the data API, which records it on the audit trail; the
 * value is the panel's object as it is (the API checks it).
 */
export const setPlayerState = (externalId: string, key: 'compliance' | 'consent', value: unknown) =>
  call(api.PUT('/operator-data-api/entities/{externalId}/state/{key}', { params: { path: { externalId, key } }, body: { value } as never }));
