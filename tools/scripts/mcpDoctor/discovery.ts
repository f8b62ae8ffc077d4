import type { Revision } from './hosts';
import { bearerChallenge, isRecord, probe, type Exchange } from './probe';

/** A fault the doctor names: the check that failed and what a host sees because of it. */
export class Fault extends Error {
  constructor(
    readonly check: string,
    message: string,
  ) {
    super(message);
  }
}

const ENVELOPE = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientInfo': { name: 'mcp-doctor', version: '1.0.0' },
  'io.modelcontextprotocol/clientCapabilities': {},
};

/** The first request a host of `revision` sends, without credentials: `initialize`, or `server/discover` on 2026-07-28. */
function firstRequest(revision: Revision): { body: unknown; headers: Record<string, string> } {
  const headers = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
  if (revision === '2026-07-28') {
    const body = { jsonrpc: '2.0', id: 1, method: 'server/discover', params: { _meta: ENVELOPE } };
    return { body, headers: { ...headers, 'mcp-protocol-version': revision, 'mcp-method': 'server/discover' } };
  }
  const params = { protocolVersion: revision, capabilities: {}, clientInfo: { name: 'mcp-doctor', version: '1.0.0' } };
  return { body: { jsonrpc: '2.0', id: 1, method: 'initialize', params }, headers };
}

/** The 401 a host needs to start OAuth: `WWW-Authenticate: Bearer resource_metadata="…"` (RFC 9728 5.1). */
export async function challengeOf(mcpUrl: string, revision: Revision): Promise<string> {
  const check = `401 challenge (${revision})`;
  const { body, headers } = firstRequest(revision);
  const answer = await probe(mcpUrl, { method: 'POST', headers, body: JSON.stringify(body) });
  if (answer.status !== 401) {
    const hint = answer.status === 200 ? 'it answered without credentials, so no host starts OAuth' : `expected 401, got ${answer.status}`;
    throw new Fault(check, `POST ${mcpUrl} (${revision}) without Authorization: ${hint}`);
  }
  const challenge = bearerChallenge(answer.headers.get('www-authenticate'));
  if (!challenge)
    throw new Fault(
      check,
      `the 401 carries no WWW-Authenticate: Bearer challenge; the SDK clients and Inspector 2.x then report only "the server requires authorization"`,
    );
  if (!challenge.resource_metadata)
    throw new Fault(check, 'the 401 challenge has no resource_metadata="…" (RFC 9728 5.1): hosts cannot find the protected-resource metadata from it');
  return challenge.resource_metadata;
}

/** Where RFC 9728 puts the metadata of a resource: the path-suffixed well-known URL, and the root one. */
export function wellKnownResourceUrls(mcpUrl: string): { pathAware: string; root: string } {
  const url = new URL(mcpUrl);
  const path = url.pathname === '/' ? '' : url.pathname.replace(/\/$/, '');
  return { pathAware: `${url.origin}/.well-known/oauth-protected-resource${path}`, root: `${url.origin}/.well-known/oauth-protected-resource` };
}

async function jsonDocument(url: string): Promise<{ url: string; document: Record<string, unknown> } | string> {
  const answer: Exchange = await probe(url, { headers: { accept: 'application/json' } });
  if (answer.status !== 200) return `${url} → ${answer.status}`;
  if (!isRecord(answer.json)) return `${url} → not a JSON object`;
  return { url, document: answer.json };
}

const sameResource = (a: string, b: string) => a.replace(/\/$/, '') === b.replace(/\/$/, '');

/** The protected-resource metadata the host finds, in its own order of URLs, with `resource` equal to the MCP URL. */
export async function resourceMetadata(mcpUrl: string, candidates: string[]): Promise<{ url: string; document: Record<string, unknown> }> {
  const tried: string[] = [];
  for (const url of [...new Set(candidates)]) {
    const found = await jsonDocument(url);
    if (typeof found === 'string') {
      tried.push(found);
      continue;
    }
    const resource = found.document.resource;
    if (typeof resource !== 'string' || !sameResource(resource, mcpUrl)) {
      throw new Fault(
        'resource',
        `${url} says resource ${JSON.stringify(resource)}, but the host connects to ${mcpUrl} and sends resource=${mcpUrl} (RFC 8707): it must match exactly (a proxy rewriting the URL?)`,
      );
    }
    const servers = found.document.authorization_servers;
    if (!Array.isArray(servers) || typeof servers[0] !== 'string') throw new Fault('protected-resource metadata', `${url} lists no authorization_servers`);
    return found;
  }
  throw new Fault('protected-resource metadata', `no protected-resource metadata where this host looks: ${tried.join('; ')}`);
}

/** RFC 8414 3 and OpenID discovery: the well-known URLs of an issuer, path inserted and appended. */
export function serverMetadataUrls(issuer: string): string[] {
  const url = new URL(issuer);
  const path = url.pathname === '/' ? '' : url.pathname.replace(/\/$/, '');
  return [
    `${url.origin}/.well-known/oauth-authorization-server${path}`,
    `${url.origin}/.well-known/openid-configuration${path}`,
    ...(path ? [`${url.origin}${path}/.well-known/openid-configuration`] : []),
  ];
}

/** The authorization server's metadata, its issuer equal to the one the resource named. */
export async function serverMetadata(issuer: string): Promise<Record<string, unknown>> {
  const tried: string[] = [];
  for (const url of serverMetadataUrls(issuer)) {
    const found = await jsonDocument(url);
    if (typeof found === 'string') {
      tried.push(found);
      continue;
    }
    if (found.document.issuer !== issuer) {
      throw new Fault(
        'authorization-server metadata',
        `${url} names issuer ${JSON.stringify(found.document.issuer)}, not ${issuer} (RFC 8414 3.3: clients refuse it)`,
      );
    }
    return found.document;
  }
  throw new Fault('authorization-server metadata', `no authorization-server metadata for ${issuer}: ${tried.join('; ')}`);
}
