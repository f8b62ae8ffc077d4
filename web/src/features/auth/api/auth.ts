import { api, call } from '../../../api/client';
import type { BodyOf, QueryOf } from '../../../api/types';
import { useLoad } from '../../../api/useLoad';

/** Creates the organisation and its Owner, answering with the new session. */
export const createOrganisation = (body: BodyOf<'/auth/v1/signup', 'post'>) => call(api.POST('/auth/v1/signup', { body }));

/** Who invited whom to which organisation, from the invite link's token. */
export const useInviteLookup = (token: QueryOf<'/platform-api/invites/lookup', 'get'>['token']) =>
  useLoad(() => call(api.GET('/platform-api/invites/lookup', { params: { query: { token } } })), [token]);

export const acceptInvite = (body: BodyOf<'/platform-api/invites/accept', 'post'>) => call(api.POST('/platform-api/invites/accept', { body }));

/** An MCP host's pending OAuth request, for the consent screen. */
export const useConsentRequest = (id: string) => useLoad(() => call(api.GET('/oauth/requests/{id}', { params: { path: { id } } })), [id]);

export const decideConsent = (id: string, body: BodyOf<'/oauth/requests/{id}/decision', 'post'>) =>
  call(api.POST('/oauth/requests/{id}/decision', { params: { path: { id } }, body }));
