import { api, call } from '../../../api/client';
import type { BodyOf } from '../../../api/types';
import { useLoad } from '../../../api/useLoad';

export const useConnectors = () => useLoad(() => call(api.GET('/connections-api/connectors')), []);

/** One connector with its document and operations (the list leaves them out). */
export const useConnector = (id: string) => useLoad(() => call(api.GET('/connections-api/connectors/{id}', { params: { path: { id } } })), [id]);

export const createConnector = (body: BodyOf<'/connections-api/connectors', 'post'>) => call(api.POST('/connections-api/connectors', { body }));

export const deleteConnector = (id: string) => call(api.DELETE('/connections-api/connectors/{id}', { params: { path: { id } } }));

export const useConnections = () => useLoad(() => call(api.GET('/connections-api/connections')), []);

export const createConnection = (body: BodyOf<'/connections-api/connections', 'post'>) => call(api.POST('/connections-api/connections', { body }));

export const updateConnection = (id: string, body: BodyOf<'/connections-api/connections/{id}', 'patch'>) =>
  call(api.PATCH('/connections-api/connections/{id}', { params: { path: { id } }, body }));

/** A supplier call through `/gateway`, answered as it came: the page shows a refusal's status and body as they are. */
export const callGateway = (body: BodyOf<'/gateway', 'post'>) => api.POST('/gateway', { body });
