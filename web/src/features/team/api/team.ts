import { api, call } from '../../../api/client';
import type { BodyOf } from '../../../api/types';
import { useLoad } from '../../../api/useLoad';

/** The organisation's members, for the team page and the audit log's actor names. */
export const useMembers = () => useLoad(() => call(api.GET('/platform-api/operators/me/members')), []);

export const changeMember = (id: string, body: BodyOf<'/platform-api/operators/me/members/{id}', 'patch'>) =>
  call(api.PATCH('/platform-api/operators/me/members/{id}', { params: { path: { id } }, body }));

export const suspendMember = (id: string) => call(api.DELETE('/platform-api/operators/me/members/{id}', { params: { path: { id } } }));

export const useInvites = () => useLoad(() => call(api.GET('/platform-api/operators/me/invites')), []);

export const createInvite = (body: BodyOf<'/platform-api/operators/me/invites', 'post'>) => call(api.POST('/platform-api/operators/me/invites', { body }));

export const resendInvite = (id: string) => call(api.POST('/platform-api/operators/me/invites/{id}/resend', { params: { path: { id } } }));

export const revokeInvite = (id: string) => call(api.DELETE('/platform-api/operators/me/invites/{id}', { params: { path: { id } } }));
