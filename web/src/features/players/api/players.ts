import { api, call, json } from '../../../api/client';
import type { BodyOf, QueryOf } from '../../../api/types';
import { useLoad } from '../../../api/useLoad';

/** One page of players from the analytics API (JSON: the dashboard never asks for its CSV form). */
export const usePlayers = (query: QueryOf<'/analytics-api/analytics/players', 'get'>) =>
  useLoad(async () => json(await call(api.GET('/analytics-api/analytics/players', { params: { query } }))), [JSON.stringify(query)]);

/** A player's profile, states, events and aggregates. */
export const usePlayer = (externalId: string) =>
  useLoad(() => call(api.GET('/analytics-api/analytics/players/{id}', { params: { path: { id: externalId } } })), [externalId]);

export const savePlayer = (body: BodyOf<'/operator-data-api/entities', 'post'>) => call(api.POST('/operator-data-api/entities', { body }));

/** Erases the player and what is stored about them (the data API's erasure). */
export const erasePlayer = (externalId: string) => call(api.DELETE('/operator-data-api/entities/{externalId}', { params: { path: { externalId } } }));
