import { createHmac } from 'node:crypto';
import type { SecurityRequirement, SecurityScheme } from './blueprint';

/** A connection's stored credentials (DESIGN.md "Gateway management"); all optional. */
export interface ConnectionCredentials {
  apiKey?: string;
  token?: string;
  username?: string;
  password?: string;
  secret?: string;
}

export interface OutboundAuth {
  headers: Record<string, string>;
  query: Array<[string, string]>;
}

export const SIGNATURE_ALGORITHM = 'HMAC-SHA256';

/** The encryption context binding a connection's credentials ciphertext to its operator and id. */
export const credentialsContext = (operatorId: string, connectionId: string) => `${operatorId}:connection:${connectionId}`;

/** The value each scheme sends, in order of preference among the credentials. */
function secretFor(scheme: SecurityScheme, credentials: ConnectionCredentials): string | undefined {
  switch (scheme.kind) {
    case 'apiKey':
      return credentials.apiKey ?? credentials.token;
    case 'bearer':
      return credentials.token ?? credentials.apiKey;
    case 'basic':
      return credentials.username !== undefined && credentials.password !== undefined ? `${credentials.username}:${credentials.password}` : undefined;
    case 'hmac':
      return credentials.secret ?? credentials.apiKey;
  }
}

/** The alternative to apply: the first whose schemes the credentials can all satisfy, else the first one. */
function chooseRequirement(schemes: Record<string, SecurityScheme>, requirements: SecurityRequirement[], credentials: ConnectionCredentials): string[] {
  const alternatives = (requirements.length > 0 ? requirements : [{ [Object.keys(schemes)[0]!]: [] }]).map((requirement) =>
    Object.keys(requirement).filter((name) => schemes[name] !== undefined),
  );
  const satisfiable = alternatives.find((names) => names.every((name) => secretFor(schemes[name]!, credentials) !== undefined));
  return satisfiable ?? alternatives[0] ?? [];
}

/**
 * Outbound authentication (spec 4.3): apiKey in a header, the query or a cookie; HTTP bearer; HTTP
 * basic; HMAC-SHA256 of the exact body text in `X-Signature` with `X-Signature-Algorithm`; and, when
 * the document defines no scheme, a bearer token from the first available credential (token, apiKey,
 * secret, password).
 *
 * @example outboundAuth({ schemes: { key: { kind: 'apiKey', name: 'X-Api-Key', in: 'header' } }, requirements: [], credentials: { apiKey: 'k' }, bodyText: '' })
 * // { headers: { 'X-Api-Key': 'k' }, query: [] }
 */
export function outboundAuth(input: {
  schemes: Record<string, SecurityScheme>;
  requirements: SecurityRequirement[];
  credentials: ConnectionCredentials;
  bodyText: string;
}): OutboundAuth {
  const { schemes, credentials } = input;
  const auth: OutboundAuth = { headers: {}, query: [] };
  if (Object.keys(schemes).length === 0) {
    const fallback = credentials.token ?? credentials.apiKey ?? credentials.secret ?? credentials.password;
    if (fallback !== undefined) auth.headers.Authorization = `Bearer ${fallback}`;
    return auth;
  }
  for (const name of chooseRequirement(schemes, input.requirements, credentials)) {
    const scheme = schemes[name]!;
    const secret = secretFor(scheme, credentials);
    if (secret === undefined) continue;
    switch (scheme.kind) {
      case 'apiKey':
        if (scheme.in === 'header') auth.headers[scheme.name] = secret;
        else if (scheme.in === 'query') auth.query.push([scheme.name, secret]);
        else auth.headers.Cookie = [auth.headers.Cookie, `${scheme.name}=${encodeURIComponent(secret)}`].filter(Boolean).join('; ');
        break;
      case 'bearer':
        auth.headers.Authorization = `Bearer ${secret}`;
        break;
      case 'basic':
        auth.headers.Authorization = `Basic ${Buffer.from(secret, 'utf8').toString('base64')}`;
        break;
      case 'hmac':
        auth.headers['X-Signature'] = createHmac('sha256', secret).update(input.bodyText, 'utf8').digest('hex');
        auth.headers['X-Signature-Algorithm'] = SIGNATURE_ALGORITHM;
        break;
    }
  }
  return auth;
}
