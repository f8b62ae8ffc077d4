import { api, call } from '../../../../api/client';
import type { QueryOf } from '../../../../api/types';
import { useLoad } from '../../../../api/useLoad';

/** The organisation's automations (`GET /workflows-api/workflows`, the spec's public path), newest first. */
export const useAutomations = (query: QueryOf<'/workflows-api/workflows', 'get'>) =>
  useLoad(() => call(api.GET('/workflows-api/workflows', { params: { query } })), [JSON.stringify(query)]);

/** One page of automations, for a summary that needs only the count. */
export const countAutomations = () => call(api.GET('/workflows-api/workflows', { params: { query: { limit: 1 } } }));
