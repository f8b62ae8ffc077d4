import { failureOf } from '../api/errors';
import type { components } from '../api/schema';
import { accessToken, auth } from './client';

type Issued = components['schemas']['DashboardCredential'];

interface Held {
  credential: string;
  renewAt: number;
}

/**
 * The data API and `/gateway` take API keys, never the session's access token (spec 4.2, 5), so the dashboard sends
 * the session's dashboard credential (`POST /auth/v1/dashboard-credential`) there instead: minutes long, bound to
 * this sign-in on the server, and never an API key. It is kept in memory only (no storage: a reload asks again),
 * asked for again a minute before it lapses, and forgotten when the session changes.
 */
let held: Held | null = null;
let pending: Promise<Held | null> | null = null;
/** Moves on with every sign-in and sign-out, so an answer to a request made before one is not kept. */
let generation = 0;

// Earlier dashboards kept an API key per tab in sessionStorage; none is left behind in a tab that loads this one.
for (const name of Object.keys(sessionStorage)) if (name.startsWith('operator-platform.data-key.')) sessionStorage.removeItem(name);

auth.onAuthStateChange((event) => {
  if (event === 'SIGNED_OUT' || event === 'SIGNED_IN') forgetDashboardCredential();
});

/** Drops the credential held (the session changed, or the server no longer takes it). */
export function forgetDashboardCredential(): void {
  generation += 1;
  held = null;
  pending = null;
}

async function issue(started: number): Promise<Held | null> {
  const token = await accessToken();
  if (!token) return null;
  const response = await fetch(`${window.location.origin}/auth/v1/dashboard-credential`, { method: 'POST', headers: { authorization: `Bearer ${token}` } });
  if (response.status === 401) {
    // The session is over on the server (signed out elsewhere, suspended): this tab signs out too.
    void auth.signOut({ scope: 'local' });
    return null;
  }
  const body = (await response.json().catch(() => null)) as Issued | null;
  if (!response.ok || !body) throw failureOf(response.status, body, response.headers);
  const issued: Held = { credential: body.credential, renewAt: Date.now() + Math.max(body.expires_in - Math.min(60, body.expires_in / 5), 1) * 1000 };
  if (started === generation) held = issued;
  return issued;
}

/** The credential for a data API or gateway call, asked for when none is held or it is about to lapse; null when signed out. */
export async function dashboardCredential(): Promise<string | null> {
  if (held && Date.now() < held.renewAt) return held.credential;
  const started = generation;
  const request = (pending ??= issue(started).finally(() => {
    if (started === generation) pending = null;
  }));
  return (await request)?.credential ?? null;
}
