import type { ProfileRow } from '../../db/queries/identity';
import type { SessionResponse } from './session';

/**
 * The signed-in user in GoTrue's shape (supabase-js `auth.getUser()`), with the organisation and role in
 * `app_metadata` (set by the platform, not by the user) so a client can show what the role allows.
 */
export function authUserRecord(profile: ProfileRow) {
  return {
    id: profile.user_id,
    aud: 'authenticated',
    role: 'authenticated',
    email: profile.email,
    app_metadata: {
      provider: 'email',
      providers: ['email'],
      operator_id: profile.operator_id,
      operator_name: profile.operator_name,
      member_id: profile.member_id,
      member_role: profile.role,
    },
    user_metadata: {
      display_name: profile.display_name,
      ...(profile.first_name !== null ? { first_name: profile.first_name } : {}),
      ...(profile.last_name !== null ? { last_name: profile.last_name } : {}),
    },
    created_at: profile.user_created_at.toISOString(),
    updated_at: profile.user_updated_at.toISOString(),
  };
}

/** The signup answer: the session in `data.session` and, as GoTrue returns it, at the top level too. */
export function signedUpRecord(user: { id: string; email: string }, operator: { id: string; name: string }, session: SessionResponse) {
  return {
    success: true,
    data: {
      user: { id: user.id, email: user.email },
      operator: { id: operator.id, name: operator.name },
      session,
    },
    ...session,
  };
}
