import { post, signUpOperator } from '../stack/stackClient';

export interface FuzzIdentity {
  /** The operator whose key and session most operations run with. */
  apiKey: string;
  session: string;
  /** A second operator's session, for key management (revoking keys cannot lock `apiKey` out). */
  keysSession: string;
  /** A third operator's session, for `POST /auth/v1/logout` (a global logout would end `session` for every later call). */
  logoutSession: string;
}

async function getJson<T>(url: string, token: string): Promise<T> {
  const response = await fetch(url, { headers: { authorization: `Bearer ${token}` } });
  if (!response.ok) throw new Error(`GET ${url}: HTTP ${response.status}`);
  return (await response.json()) as T;
}

/**
 * Fresh operators for a fuzz run, plus the little data that lets generated requests get past "not
 * configured" and "not found": the first template selected, MCP enabled on the key, and a player `0`
 * with an event and a state (Schemathesis' smallest generated string is `0`).
 *
 * @example const identity = await seedFuzzData('http://127.0.0.1:8080')
 */
export async function seedFuzzData(url: string): Promise<FuzzIdentity> {
  const [main, keys, leaving] = [await signUpOperator(url), await signUpOperator(url), await signUpOperator(url)];
  const templates = await getJson<{ data: Array<{ id: string }> }>(`${url}/operator-data-api/templates`, main.apiKey);
  if (templates.data[0]) await post(url, '/operator-data-api/settings', { templateId: templates.data[0].id }, main.apiKey, 'PUT');
  const [key] = (await getJson<{ data: Array<{ id: string }> }>(`${url}/api-keys`, main.apiKey)).data;
  if (key) await post(url, `/api-keys/${key.id}/mcp`, { mcp_enabled: true }, main.accessToken, 'PATCH');
  await post(
    url,
    '/operator-data-api/entities',
    { entityType: 'player', externalId: '0', data: { first_name: 'Fuzz', email: 'fuzz@example.test', country: 'MT' } },
    main.apiKey,
  )
    .then(() => post(url, '/operator-data-api/entities/0/events', { eventType: 'session', data: { device: 'web' } }, main.apiKey))
    .then(() => post(url, '/operator-data-api/entities/0/state/balance', { value: 100 }, main.apiKey, 'PUT'))
    .catch((error: unknown) => process.stdout.write(`fuzz: seeding player 0 skipped: ${(error as Error).message}\n`));
  return { apiKey: main.apiKey, session: main.accessToken, keysSession: keys.accessToken, logoutSession: leaving.accessToken };
}
