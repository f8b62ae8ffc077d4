import { GoTrueClient } from '@supabase/auth-js';

/**
 * The platform's own `/auth/v1`, through the official Supabase auth client: it keeps the session as
 * `/auth/v1/token` issues it (access token plus single-use refresh token, in localStorage under one
 * key), refreshes it before it expires, and shares it between tabs.
 */
export const auth = new GoTrueClient({
  url: `${window.location.origin}/auth/v1`,
  storageKey: 'operator-platform.session',
  autoRefreshToken: true,
  persistSession: true,
  detectSessionInUrl: false,
});

/** A fresh access token, refreshed first when it is about to expire; null when signed out. */
export async function accessToken(): Promise<string | null> {
  const { data } = await auth.getSession();
  return data.session?.access_token ?? null;
}
