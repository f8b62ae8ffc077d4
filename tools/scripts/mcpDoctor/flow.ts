import { createHash, randomBytes } from 'node:crypto';
import { Fault } from './discovery';
import type { HostProfile } from './hosts';
import { isRecord, probe } from './probe';

const list = (value: unknown): unknown[] => (Array.isArray(value) ? value : []);
const endpoint = (metadata: Record<string, unknown>, name: string): string => {
  const value = metadata[name];
  if (typeof value !== 'string' || !/^https?:\/\//.test(value)) throw new Fault('authorization-server metadata', `the metadata has no ${name}`);
  return value;
};

/** What every host needs of the authorization-server metadata (MCP authorization, OAuth 2.1). */
export function checkServerMetadata(host: HostProfile, metadata: Record<string, unknown>): string[] {
  const notes: string[] = [];
  endpoint(metadata, 'authorization_endpoint');
  endpoint(metadata, 'token_endpoint');
  if (!list(metadata.code_challenge_methods_supported).includes('S256')) {
    throw new Fault('PKCE', 'code_challenge_methods_supported lacks "S256": MCP clients must refuse a server that does not advertise it');
  }
  const grants = metadata.grant_types_supported === undefined ? ['authorization_code', 'implicit'] : list(metadata.grant_types_supported);
  if (!grants.includes('authorization_code')) throw new Fault('grants', 'grant_types_supported lacks "authorization_code"');
  if (!grants.includes('refresh_token')) notes.push('no refresh_token grant: the host asks the member to approve again when the access token expires');
  if (host.checksIss && metadata.authorization_response_iss_parameter_supported !== true) {
    throw new Fault('iss', 'authorization_response_iss_parameter_supported is not true: 2026-07-28 clients check iss in the authorization response (RFC 9207)');
  }
  return notes;
}

/** How the host gets its client id here: a metadata document when both sides support one, else Dynamic Registration. */
export function registrationOf(host: HostProfile, metadata: Record<string, unknown>): 'cimd' | 'dcr' {
  const cimd = metadata.client_id_metadata_document_supported === true && list(metadata.token_endpoint_auth_methods_supported).includes('none');
  if (host.registration.includes('cimd') && cimd) return 'cimd';
  if (host.registration.includes('dcr') && typeof metadata.registration_endpoint === 'string') return 'dcr';
  const needs = host.registration.map((way) =>
    way === 'cimd' ? 'Client ID Metadata Documents (with "none" among token_endpoint_auth_methods_supported)' : 'a registration_endpoint (RFC 7591)',
  );
  throw new Fault('registration', `${host.name} registers by ${needs.join(' or ')}; the server offers neither`);
}

/** Dynamic Client Registration as the host sends it: every redirect URI of the host in one request, public client. */
export async function register(host: HostProfile, metadata: Record<string, unknown>): Promise<string> {
  const url = endpoint(metadata, 'registration_endpoint');
  const body = {
    client_name: `mcp-doctor (${host.id})`,
    redirect_uris: host.redirectUris,
    grant_types: ['authorization_code', 'refresh_token'],
    response_types: ['code'],
    token_endpoint_auth_method: 'none',
  };
  const answer = await probe(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  const reply = isRecord(answer.json) ? answer.json : {};
  if (answer.status !== 201 && answer.status !== 200) {
    const why = [reply.error, reply.error_description].filter(Boolean).join(': ') || answer.text.slice(0, 200);
    throw new Fault('redirect URI', `registering ${host.redirectUris.join(', ')} → ${answer.status} ${why}`);
  }
  if (typeof reply.client_id !== 'string') throw new Fault('registration', `${url} answered ${answer.status} without a client_id`);
  const echoed = list(reply.redirect_uris);
  const missing = host.redirectUris.filter((uri) => !echoed.includes(uri));
  if (missing.length > 0) throw new Fault('redirect URI', `the registration dropped ${missing.join(', ')}: the host's callback would be refused`);
  return reply.client_id;
}

/** The authorization request a host opens in the browser: it must lead to a sign-in or consent page, not an error. */
export async function authorize(host: HostProfile, metadata: Record<string, unknown>, clientId: string, resource: string, scope: string): Promise<string> {
  const verifier = randomBytes(32).toString('base64url');
  const query = new URLSearchParams({
    response_type: 'code',
    client_id: clientId,
    redirect_uri: host.redirectUris[0]!,
    code_challenge: createHash('sha256').update(verifier).digest('base64url'),
    code_challenge_method: 'S256',
    state: randomBytes(8).toString('hex'),
    resource,
    ...(scope ? { scope } : {}),
  });
  const url = `${endpoint(metadata, 'authorization_endpoint')}?${query}`;
  const answer = await probe(url);
  const location = answer.headers.get('location');
  if (answer.status >= 300 && answer.status < 400 && location) {
    const target = new URL(location, url);
    const back = target.href.startsWith(host.redirectUris[0]!);
    if (back && target.searchParams.get('error')) {
      const check =
        target.searchParams.get('error') === 'invalid_target' ? 'resource' : target.searchParams.get('error') === 'invalid_scope' ? 'scope' : 'authorize';
      throw new Fault(
        check,
        `authorize sent the host back with error=${target.searchParams.get('error')}: ${target.searchParams.get('error_description') ?? ''}`,
      );
    }
    if (back && host.checksIss && !target.searchParams.get('iss')) throw new Fault('iss', 'the authorization response carries no iss (RFC 9207)');
    return `leads to ${target.origin}${target.pathname} (the member signs in and approves there)`;
  }
  if (answer.status === 200 && /text\/html/.test(answer.headers.get('content-type') ?? '')) return 'answers with a sign-in page';
  const reply = isRecord(answer.json) ? answer.json : {};
  throw new Fault('authorize', `GET authorize → ${answer.status} ${[reply.error, reply.error_description].filter(Boolean).join(': ')}`);
}

/** The token endpoint takes a form-encoded code exchange (a made-up code here): an OAuth error, not a 404 or a 5xx. */
export async function tokenEndpoint(host: HostProfile, metadata: Record<string, unknown>, clientId: string, resource: string): Promise<void> {
  const url = endpoint(metadata, 'token_endpoint');
  const body = new URLSearchParams({
    grant_type: 'authorization_code',
    code: 'mcp-doctor-not-a-code',
    redirect_uri: host.redirectUris[0]!,
    client_id: clientId,
    code_verifier: randomBytes(32).toString('base64url'),
    resource,
  });
  const answer = await probe(url, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body });
  const error = isRecord(answer.json) ? answer.json.error : undefined;
  if (answer.status !== 400 || typeof error !== 'string') {
    throw new Fault(
      'token',
      `POST ${url} with an unknown code → ${answer.status} ${answer.text.slice(0, 120)} (expected 400 with an OAuth error such as invalid_grant)`,
    );
  }
}
