import { accessToken } from './auth/client';

/**
 * Before the Temporal Web UI opens a run: puts the member's access token in the codec cookie
 * (`POST /temporal-codec/session`, HttpOnly, path `/temporal-codec`), so the UI — with "Include cross-origin
 * credentials" on — can have this API open the run's sealed payloads. Only an Owner of an organisation allowed
 * to read Temporal payloads gets the cookie; for anyone else it is a 403 and the UI shows the sealed payloads.
 */
export async function startTemporalCodecSession(): Promise<void> {
  const token = await accessToken();
  if (!token) return;
  await fetch('/temporal-codec/session', { method: 'POST', headers: { authorization: `Bearer ${token}` }, keepalive: true }).catch(() => undefined);
}
