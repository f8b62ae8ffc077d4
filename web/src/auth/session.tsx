import type { User } from '@supabase/auth-js';
import { createContext, useContext, useEffect, useMemo, useState, type ReactNode } from 'react';
import { auth } from './client';

export type Role = 'owner' | 'admin' | 'member';

/** The signed-in member as `GET /auth/v1/user` describes them (organisation and role in `app_metadata`). */
export interface Member {
  userId: string;
  email: string;
  displayName: string;
  memberId: string;
  role: Role;
  operatorId: string;
  operatorName: string;
}

export type SessionState = { status: 'loading' } | { status: 'signed-out' } | { status: 'signed-in'; member: Member };

function memberOf(user: User): Member {
  const app = user.app_metadata as Record<string, unknown>;
  const meta = user.user_metadata as Record<string, unknown>;
  const role = app.member_role === 'owner' || app.member_role === 'admin' ? app.member_role : 'member';
  return {
    userId: user.id,
    email: user.email ?? '',
    displayName: typeof meta.display_name === 'string' ? meta.display_name : (user.email ?? ''),
    memberId: String(app.member_id ?? ''),
    role,
    operatorId: String(app.operator_id ?? ''),
    operatorName: String(app.operator_name ?? ''),
  };
}

const SessionContext = createContext<SessionState>({ status: 'loading' });

/**
 * Follows the auth client's session: signed out, or signed in as a member whose role the UI shows
 * (the server still enforces every rule). Events from other tabs (sign-out, refresh) arrive here too.
 */
export function SessionProvider({ children }: { children: ReactNode }) {
  const [state, setState] = useState<SessionState>({ status: 'loading' });

  useEffect(() => {
    let current: string | null = null;
    const load = async () => {
      const { data, error } = await auth.getUser();
      if (error || !data.user) {
        current = null;
        const { data: session } = await auth.getSession();
        if (session.session) await auth.signOut({ scope: 'local' });
        setState({ status: 'signed-out' });
        return;
      }
      current = data.user.id;
      setState({ status: 'signed-in', member: memberOf(data.user) });
    };
    const { data: subscription } = auth.onAuthStateChange((event, session) => {
      // Deferred: the auth client holds its lock while it notifies, and getUser needs it.
      setTimeout(() => {
        if (!session) {
          current = null;
          setState({ status: 'signed-out' });
        } else if (event === 'INITIAL_SESSION' || event === 'SIGNED_IN' || event === 'USER_UPDATED') {
          if (event !== 'SIGNED_IN' || current !== session.user.id) void load();
        }
      }, 0);
    });
    return () => subscription.subscription.unsubscribe();
  }, []);

  return <SessionContext.Provider value={state}>{children}</SessionContext.Provider>;
}

export const useSession = (): SessionState => useContext(SessionContext);

/** The signed-in member; only for pages behind `RequireSession`. */
export function useMember(): Member {
  const state = useSession();
  if (state.status !== 'signed-in') throw new Error('useMember outside a signed-in page');
  return state.member;
}

/** Owner and Admins manage keys, workflows, connections and the team; a Member reads. */
export const canManage = (member: Member): boolean => member.role === 'owner' || member.role === 'admin';

export function useCanManage(): boolean {
  const member = useMember();
  return useMemo(() => canManage(member), [member]);
}
