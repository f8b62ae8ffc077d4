import { SUPPLIER_KEY, supplierDocument } from './loopbackSupplier';

/**
 * The first calls a load or fault run makes against a stack it started: an operator of its own, and JSON posts
 * that throw on anything but 2xx (setup that fails should stop the run, not skew its figures).
 */

/** Signs up an operator and returns its id, session token and a fresh API key. */
export async function signUpOperator(url: string): Promise<{ operatorId: string; accessToken: string; apiKey: string }> {
  const email = `bench-${Date.now()}-${Math.random().toString(16).slice(2)}@example.test`;
  const signup = await post(url, '/auth/v1/signup', { email, password: 'bench-password', organisationName: 'Bench' });
  const operatorId = signup.data.operator.id as string;
  const accessToken = signup.data.session.access_token as string;
  const key = await post(url, '/api-keys', { operatorId, label: 'bench' }, accessToken);
  return { operatorId, accessToken, apiKey: key.data.key as string };
}

/** POST JSON and return the parsed body; throws on a non-2xx answer. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- a tool's own calls: each caller reads the fields it asked for
export async function post(url: string, path: string, body: unknown, token?: string, method = 'POST'): Promise<any> {
  const response = await fetch(`${url}${path}`, {
    method,
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify(body),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`${method} ${path}: HTTP ${response.status} ${text.slice(0, 200)}`);
  return text ? JSON.parse(text) : undefined;
}

/**
 * A connector for the loopback KYC supplier at `supplierUrl` (tools/stack/loopbackSupplier.ts) and a connection to it,
 * named `name`; returns the connection's id.
 */
export async function supplierConnection(url: string, key: string, supplierUrl: string, name: string): Promise<string> {
  const schemaMap = { playerId: 'player_ref', status: 'kyc_state' };
  const connector = await post(
    url,
    '/connections-api/connectors',
    { name: `${name} KYC`, provider: name, openapi: supplierDocument(supplierUrl), schemaMap },
    key,
  );
  const connection = await post(url, '/connections-api/connections', { connectorId: connector.data.id, name, credentials: { apiKey: SUPPLIER_KEY } }, key);
  return connection.data.id as string;
}
