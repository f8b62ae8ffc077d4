import { api, call } from '../../../api/client';
import type { BodyOf, QueryOf } from '../../../api/types';
import { useLoad } from '../../../api/useLoad';

/** The organisation's API keys, revoked ones included. */
export const useApiKeys = () => useLoad(listApiKeys, []);

export const createApiKey = (body: BodyOf<'/api-keys', 'post'>) => call(api.POST('/api-keys', { body }));

export const renameApiKey = (body: BodyOf<'/api-keys', 'patch'>) => call(api.PATCH('/api-keys', { body }));

/** Revokes a key, or with `hard: 'true'` deletes a revoked one. */
export const removeApiKey = (query: QueryOf<'/api-keys', 'delete'>) => call(api.DELETE('/api-keys', { params: { query } }));

export const setKeyMcp = (id: string, body: BodyOf<'/api-keys/{id}/mcp', 'patch'>) => call(api.PATCH('/api-keys/{id}/mcp', { params: { path: { id } }, body }));

/** Whether MCP hosts may connect by OAuth and whether a Member may grant them write access. */
export const useHostRules = () => useLoad(() => call(api.GET('/oauth/settings')), []);

export const saveHostRules = (body: BodyOf<'/oauth/settings', 'put'>) => call(api.PUT('/oauth/settings', { body }));

export const useConnectedHosts = () => useLoad(() => call(api.GET('/oauth/hosts')), []);

export const disconnectHost = (id: string) => call(api.DELETE('/oauth/hosts/{id}', { params: { path: { id } } }));

export const listApiKeys = () => call(api.GET('/api-keys'));
