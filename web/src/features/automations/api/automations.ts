import { api, call } from '../../../api/client';
import type { BodyOf, QueryOf } from '../../../api/types';
import { useLoad } from '../../../api/useLoad';

/** The organisation's automations (`GET /workflows-api/workflows`, the spec's public path), newest first. */
export const useAutomations = (query: QueryOf<'/workflows-api/workflows', 'get'>) =>
  useLoad(() => call(api.GET('/workflows-api/workflows', { params: { query } })), [JSON.stringify(query)]);

/** One page of automations, for a summary that needs only the count. */
export const countAutomations = () => call(api.GET('/workflows-api/workflows', { params: { query: { limit: 1 } } }));

/** One automation as saved now (its definition, layout and state); a deleted one is a 404 its caller may expect. */
export const getAutomation = (id: string) => call(api.GET('/workflows-api/workflows/{id}', { params: { path: { id } } }));

/** One automation, or nothing while no id is chosen. */
export const useAutomation = (id: string | undefined) => useLoad(async () => (id ? (await getAutomation(id)).data : null), [id]);

/** One saved version's definition. */
export const getVersion = (id: string, version: number) =>
  call(api.GET('/workflows-api/workflows/{id}/versions/{version}', { params: { path: { id, version } } }));

export const createAutomation = (body: BodyOf<'/workflows-api/workflows', 'post'>) => call(api.POST('/workflows-api/workflows', { body }));

/** Saves a new version of the automation. */
export const updateAutomation = (id: string, body: BodyOf<'/workflows-api/workflows/{id}', 'put'>) =>
  call(api.PUT('/workflows-api/workflows/{id}', { params: { path: { id } }, body }));

export const deleteAutomation = (id: string) => call(api.DELETE('/workflows-api/workflows/{id}', { params: { path: { id } } }));
